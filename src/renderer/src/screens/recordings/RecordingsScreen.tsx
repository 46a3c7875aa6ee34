import { useEffect, useState } from 'react'

import { Badge } from '../../components/Badge'
import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { Checkbox, Field, Select, TextInput } from '../../components/Field'
import { EmptyState, ErrorState, InlineError } from '../../components/States'
import { Table } from '../../components/Table'
import type { Column } from '../../components/Table'
import { RelativeTime } from '../../components/Time'
import { useAction } from '../../components/use-action'
import { pluralize } from '../../format/number'
import { buildHash } from '../../navigation/routes'
import { useConnection } from '../../stores/connection'
import { useRecordings } from '../../stores/recordings'
import type { RecordingSummary } from '../../stores/recordings'
import { failedWithoutData } from '../../stores/resource'
import { toast } from '../../stores/toasts'
import { useUpstream } from '../../stores/upstream'
import { leftOutNote } from './left-out'

/**
 * Recordings (docs/upstream.md, "Record, replay, reproduce"): record what the real platform
 * answered, download it for a bug report, replay it offline, and make a scenario of it.
 */
export function RecordingsScreen() {
  const load = useRecordings((state) => state.load)
  const loadUpstream = useUpstream((state) => state.loadUpstream)
  const dataVersion = useConnection((state) => state.dataVersion)
  useEffect(() => {
    void load()
    void loadUpstream()
  }, [load, loadUpstream, dataVersion])

  return (
    <div className="screen recordings" data-testid="recordings-screen">
      <div className="grid grid--2">
        <RecordCard />
        <ReplayCard />
      </div>
      <RecordingList />
      <ScenarioCard />
    </div>
  )
}

function RecordCard() {
  const recordings = useRecordings((state) => state.recordings.data)
  const start = useRecordings((state) => state.start)
  const stop = useRecordings((state) => state.stop)
  const upstream = useUpstream((state) => state.upstream.data)
  const [name, setName] = useState('')
  const { busy, error, run } = useAction<'start' | 'stop'>()
  const running = recordings?.find((recording) => recording.stoppedAt === null) ?? null
  return (
    <Card
      title="Record"
      description="Keeps every exchange forwarded to the upstream, in order, with each secret replaced by a fingerprint. Nothing the emulator answers itself is recorded."
      testId="record-card"
    >
      <div className="stack">
        {!upstream?.url ? (
          <p className="muted" data-testid="record-no-upstream">
            Forwarding is off: nothing reaches a recording until an upstream is set on{' '}
            <a href={buildHash('scenarios')}>Scenarios &amp; settings</a>.
          </p>
        ) : null}
        {running ? (
          <p data-testid="record-running">
            <Badge tone="danger">Recording</Badge> <strong>{running.name}</strong>:{' '}
            {pluralize(running.exchanges, 'exchange')} so far
          </p>
        ) : null}
        {/* The name on a line of its own, Start and Stop together under it: beside the name, Stop
            fell onto a line of its own in this half-width card at 1280 px. */}
        <form
          className="stack"
          onSubmit={(event) => {
            event.preventDefault()
            void run('start', async () => {
              const started = await start(name)
              setName('')
              toast.success(`Recording "${started.name}"`)
            })
          }}
        >
          <Field label="Name" hint="What the recording is for, e.g. the bug it reproduces">
            {(control) => (
              <TextInput
                {...control}
                value={name}
                maxLength={200}
                placeholder="EXPIRED for ACME"
                onChange={(event) => setName(event.target.value)}
                data-testid="recording-name"
              />
            )}
          </Field>
          <div className="button-row">
            <Button type="submit" variant="primary" icon="play" busy={busy === 'start'} data-testid="recording-start">
              {running ? 'Start a new one' : 'Start recording'}
            </Button>
            <Button
              type="button"
              busy={busy === 'stop'}
              disabled={!running}
              disabledReason="No recording is running."
              onClick={() => running && void run('stop', () => stop(running.id))}
              data-testid="recording-stop"
            >
              Stop
            </Button>
          </div>
        </form>
        {error && <InlineError error={error} />}
      </div>
    </Card>
  )
}

function ReplayCard() {
  const recordings = useRecordings((state) => state.recordings.data)
  const replay = useRecordings((state) => state.replay.data)
  const setReplay = useRecordings((state) => state.setReplay)
  // Until the user changes them, the form shows the replay that runs (coming back to this screen
  // during a strict replay must not read as a lenient one), or the defaults when none does.
  const [chosen, setChosen] = useState<string | null>(null)
  const [strictChoice, setStrict] = useState<boolean | null>(null)
  const [resignChoice, setResign] = useState<boolean | null>(null)
  const { busy, error, run } = useAction<'on' | 'off'>()
  const active = replay?.active ? replay : null
  const strict = strictChoice ?? active?.strict ?? false
  const resign = resignChoice ?? active?.resign ?? false
  const stopped = (recordings ?? []).filter((recording) => recording.stoppedAt !== null)
  const replayed = stopped.find((recording) => recording.id === active?.recording?.id)
  const selected = chosen ?? replayed?.id ?? stopped[0]?.id ?? ''
  const followServer = () => {
    setChosen(null)
    setStrict(null)
    setResign(null)
  }
  return (
    <Card
      title="Replay"
      description="Matching requests get the recorded answers in order, the last one repeating, marked 'recording' in Requests. Works with no upstream."
      testId="replay-card"
    >
      <div className="stack">
        <p data-testid="replay-state">
          {replay?.active && replay.recording ? (
            <>
              <Badge tone="success">Replaying</Badge> <strong>{replay.recording.name}</strong> (
              {pluralize(replay.recording.exchanges, 'exchange')}
              {replay.strict ? ', strict' : ''}
              {replay.resign ? ', re-signing license tokens' : ''})
            </>
          ) : (
            <span className="muted">No recording is replayed: the emulator (or the upstream) answers.</span>
          )}
        </p>
        <Field label="Recording">
          {(control) => (
            <Select
              {...control}
              value={selected}
              onChange={(event) => setChosen(event.target.value)}
              data-testid="replay-recording"
            >
              {stopped.length === 0 ? <option value="">No stopped recording yet</option> : null}
              {stopped.map((recording) => (
                <option key={recording.id} value={recording.id}>
                  {recording.name} ({recording.exchanges})
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Checkbox
          label="Strict"
          hint="Requests nobody recorded get 404 NO_RECORDED_MATCH, naming the closest recorded one."
          checked={strict}
          onChange={(event) => setStrict(event.target.checked)}
          data-testid="replay-strict"
        />
        <Checkbox
          label="Re-sign license tokens"
          hint="With the emulator's key at the emulator clock, for plugin builds that pin the emulator's key."
          checked={resign}
          onChange={(event) => setResign(event.target.checked)}
          data-testid="replay-resign"
        />
        <div className="button-row">
          <Button
            variant="primary"
            busy={busy === 'on'}
            disabled={selected === ''}
            disabledReason="Stop a recording first: only a stopped one replays."
            onClick={() =>
              void run('on', async () => {
                const state = await setReplay(selected, { strict, resign })
                followServer()
                toast.success(`Replaying "${state.recording?.name ?? ''}"`)
              })
            }
            data-testid="replay-on"
          >
            Replay
          </Button>
          <Button
            busy={busy === 'off'}
            disabled={!replay?.active}
            disabledReason="Nothing is replayed."
            onClick={() =>
              void run('off', async () => {
                await setReplay(null, { strict: false, resign: false })
                followServer()
              })
            }
            data-testid="replay-off"
          >
            Stop replaying
          </Button>
        </div>
        {error && <InlineError error={error} />}
      </div>
    </Card>
  )
}

function RecordingList() {
  const resource = useRecordings((state) => state.recordings)
  const load = useRecordings((state) => state.load)
  const download = useRecordings((state) => state.download)
  const remove = useRecordings((state) => state.remove)
  const { busy, error, run } = useAction<string>()
  if (failedWithoutData(resource)) return <ErrorState error={resource.error} onRetry={() => void load()} />
  const columns: Column<RecordingSummary>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (row) => (
        <span>
          <strong>{row.name}</strong>
          {row.stoppedAt === null ? (
            <>
              {' '}
              <Badge tone="danger">Recording</Badge>
            </>
          ) : null}
        </span>
      ),
      sortValue: (row) => row.name
    },
    {
      key: 'started',
      header: 'Started',
      // Narrow enough that the name keeps a column of its own at 760 px (the date wraps).
      width: '11rem',
      render: (row) => <RelativeTime value={row.startedAt} />,
      sortValue: (row) => row.startedAt
    },
    {
      key: 'exchanges',
      header: 'Exchanges',
      width: '7rem',
      align: 'right',
      render: (row) => {
        const note = leftOutNote(row)
        return (
          <span title={note.title}>
            {row.exchanges}
            {note.suffix}
          </span>
        )
      },
      sortValue: (row) => row.exchanges
    },
    {
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      // Download and Delete side by side (182 px and the cell's 12 px padding): at 12rem Delete
      // went under Download at every width.
      width: '12.5rem',
      align: 'right',
      render: (row) => (
        <span className="recordings__row-actions">
          <Button
            size="sm"
            icon="download"
            busy={busy === `download-${row.id}`}
            onClick={() => void run(`download-${row.id}`, () => download(row))}
            data-testid={`recording-download-${row.id}`}
          >
            Download
          </Button>
          <Button
            size="sm"
            variant="danger"
            busy={busy === `delete-${row.id}`}
            onClick={() => void run(`delete-${row.id}`, () => remove(row.id))}
            data-testid={`recording-delete-${row.id}`}
          >
            Delete
          </Button>
        </span>
      )
    }
  ]
  return (
    <Card title="Recordings" description="Newest first. A download holds no secret: attach it to a bug report.">
      <Table
        caption="Recordings"
        columns={columns}
        rows={resource.data}
        rowKey={(row) => row.id}
        loading={resource.status === 'loading'}
        rowTestId={(row) => `recording-row-${row.id}`}
        empty={
          <EmptyState title="No recordings yet" compact>
            Set an upstream, start a recording, and run the plugin's flow.
          </EmptyState>
        }
      />
      {error && <InlineError error={error} />}
    </Card>
  )
}

function ScenarioCard() {
  const recordings = useRecordings((state) => state.recordings.data)
  const lastScenario = useRecordings((state) => state.lastScenario)
  const makeScenario = useRecordings((state) => state.makeScenario)
  const [chosen, setChosen] = useState('')
  const [pluginKey, setPluginKey] = useState('')
  const [pluginSecret, setPluginSecret] = useState('')
  const { busy, error, run } = useAction<'make'>()
  const list = recordings ?? []
  const selected = list.find((recording) => recording.id === (chosen || list[0]?.id)) ?? null
  return (
    <Card
      title="Make a scenario"
      description="Turns what the recorded answers reveal into a scenario file to import (Scenarios & settings, Import), so the flow goes on statefully offline. Give the plugin's key and secret to carry its credential: they are checked against the recording and kept only as hashes."
      testId="scenario-from-recording-card"
    >
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault()
          if (!selected) return
          void run('make', async () => {
            if (await makeScenario(selected, { pluginKey, pluginSecret })) toast.success('Scenario saved')
            setPluginSecret('')
          })
        }}
      >
        {/* The recording's name on a line of its own: a third of the card cut it at 1280 and 1366 px. */}
        <Field label="Recording">
          {(control) => (
            <Select
              {...control}
              value={selected?.id ?? ''}
              onChange={(event) => setChosen(event.target.value)}
              data-testid="scenario-recording"
            >
              {list.length === 0 ? <option value="">No recording yet</option> : null}
              {list.map((recording) => (
                <option key={recording.id} value={recording.id}>
                  {recording.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <div className="grid grid--2">
          <Field label="Plugin key" hint="Optional">
            {(control) => (
              <TextInput
                {...control}
                className="mono"
                type="password"
                autoComplete="off"
                value={pluginKey}
                onChange={(event) => setPluginKey(event.target.value)}
                data-testid="scenario-plugin-key"
              />
            )}
          </Field>
          <Field label="Plugin secret" hint="Optional">
            {(control) => (
              <TextInput
                {...control}
                className="mono"
                type="password"
                autoComplete="off"
                value={pluginSecret}
                onChange={(event) => setPluginSecret(event.target.value)}
                data-testid="scenario-plugin-secret"
              />
            )}
          </Field>
        </div>
        <div className="button-row">
          <Button
            type="submit"
            variant="primary"
            busy={busy === 'make'}
            disabled={!selected}
            disabledReason="Record something first."
            data-testid="scenario-make"
          >
            Make a scenario
          </Button>
        </div>
        {error && <InlineError error={error} />}
        {lastScenario ? (
          <div className="recordings__notes" data-testid="scenario-notes">
            <h3 className="card__title">What the recording could not tell</h3>
            <ul>
              {lastScenario.notes.map((note, index) => (
                <li key={index}>
                  <code>{note.field}</code>: {note.note}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </form>
    </Card>
  )
}
