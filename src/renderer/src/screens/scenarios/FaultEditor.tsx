import { useState } from 'react'

import { FAULT_KINDS } from '../../../../shared/contract/faults'
import type { FaultKind } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Button, IconButton } from '../../components/Button'
import { Card } from '../../components/Card'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { Field, Select, TextInput } from '../../components/Field'
import { Skeleton } from '../../components/Skeleton'
import { EmptyState, ErrorState, InlineError } from '../../components/States'
import { useAction } from '../../components/use-action'
import { failedWithoutData } from '../../stores/resource'
import { useSettings } from '../../stores/settings'
import { toast } from '../../stores/toasts'
import {
  describeRule,
  draftOf,
  FAULT_TEMPLATES,
  fieldsOf,
  KIND_HELP,
  KIND_LABELS,
  newDraft,
  placeholdersOf,
  ruleOf,
  withKind
} from './fault-draft'
import type { DraftErrors, FaultDraft } from './fault-draft'

function RuleRow({
  draft,
  index,
  count,
  errors,
  onChange,
  onMove,
  onRemove
}: {
  draft: FaultDraft
  index: number
  count: number
  errors: DraftErrors
  onChange: (patch: Partial<FaultDraft>) => void
  onMove: (delta: -1 | 1) => void
  onRemove: () => void
}) {
  const uses = fieldsOf(draft.kind)
  const placeholders = placeholdersOf(draft.kind)
  const preview = ruleOf(draft).rule
  return (
    <li className="fault-rule" data-testid={`fault-rule-${index}`}>
      <div className="fault-rule__order">
        <span className="fault-rule__index" aria-label={`Rule ${index + 1}`}>
          {index + 1}
        </span>
        <IconButton
          icon="up"
          label={`Move rule ${index + 1} up`}
          size="sm"
          disabled={index === 0}
          onClick={() => onMove(-1)}
        />
        <IconButton
          icon="down"
          label={`Move rule ${index + 1} down`}
          size="sm"
          disabled={index === count - 1}
          onClick={() => onMove(1)}
        />
      </div>
      <div className="fault-rule__fields">
        <Field label="Method" className="fault-field fault-field--method">
          {(control) => (
            <Select {...control} value={draft.method} onChange={(event) => onChange({ method: event.target.value })}>
              <option value="">Any</option>
              {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map((method) => (
                <option key={method} value={method}>
                  {method}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Route pattern" error={errors.route} className="fault-field fault-field--route">
          {(control) => (
            <TextInput
              {...control}
              className="mono"
              value={draft.route}
              onChange={(event) => onChange({ route: event.target.value })}
              data-testid="fault-route"
            />
          )}
        </Field>
        <Field label="Fault" className="fault-field fault-field--kind">
          {(control) => (
            <Select
              {...control}
              value={draft.kind}
              onChange={(event) => onChange(withKind(draft, event.target.value as FaultKind))}
              data-testid="fault-kind"
            >
              {FAULT_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {KIND_LABELS[kind]}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {uses.status ? (
          <Field label="Status" error={errors.status} className="fault-field fault-field--num">
            {(control) => (
              <TextInput
                {...control}
                inputMode="numeric"
                value={draft.status}
                placeholder={placeholders.status}
                onChange={(event) => onChange({ status: event.target.value })}
                data-testid="fault-status"
              />
            )}
          </Field>
        ) : null}
        {uses.retryAfterS ? (
          <Field label="Retry-After (s)" error={errors.retryAfterS} className="fault-field fault-field--num">
            {(control) => (
              <TextInput
                {...control}
                inputMode="numeric"
                value={draft.retryAfterS}
                placeholder={placeholders.retryAfterS}
                onChange={(event) => onChange({ retryAfterS: event.target.value })}
              />
            )}
          </Field>
        ) : null}
        <Field label={uses.msLabel} error={errors.ms} className="fault-field fault-field--num">
          {(control) => (
            <TextInput
              {...control}
              inputMode="numeric"
              value={draft.ms}
              placeholder={placeholders.ms}
              onChange={(event) => onChange({ ms: event.target.value })}
            />
          )}
        </Field>
        <Field label="± jitter (ms)" error={errors.jitterMs} className="fault-field fault-field--num">
          {(control) => (
            <TextInput
              {...control}
              inputMode="numeric"
              value={draft.jitterMs}
              placeholder={placeholders.jitterMs}
              onChange={(event) => onChange({ jitterMs: event.target.value })}
            />
          )}
        </Field>
        <Field label="Probability" error={errors.probability} className="fault-field fault-field--num">
          {(control) => (
            <TextInput
              {...control}
              value={draft.probability}
              placeholder="1 (always)"
              onChange={(event) => onChange({ probability: event.target.value })}
            />
          )}
        </Field>
        <Field label="Stage" className="fault-field fault-field--num">
          {(control) => (
            <Select
              {...control}
              value={draft.stage ?? 'before'}
              title="With forwarding on: before the upstream is called (it never is), or after it answered"
              onChange={(event) => onChange({ stage: event.target.value === 'after' ? 'after' : 'before' })}
              data-testid="fault-stage"
            >
              <option value="before">Before</option>
              <option value="after">After upstream</option>
            </Select>
          )}
        </Field>
        <p className="fault-rule__summary small muted">
          {preview ? describeRule(preview) : KIND_HELP[draft.kind]}
          {preview?.stage === 'after' ? ' (after the upstream answered)' : ''}
        </p>
      </div>
      <IconButton icon="trash" label={`Remove rule ${index + 1}`} needsServer={false} onClick={onRemove} />
    </li>
  )
}

/**
 * The fault rules of the service API (docs/api.md section 6): first match decides. Edited
 * locally, applied all at once (PUT /_emulator/faults), so a half-written rule never goes live.
 */
export function FaultEditor() {
  const faults = useSettings((state) => state.faults)
  const loadFaults = useSettings((state) => state.loadFaults)
  const saveFaults = useSettings((state) => state.saveFaults)
  const clearFaults = useSettings((state) => state.clearFaults)
  const [drafts, setDrafts] = useState<FaultDraft[] | null>(null)
  const [dirty, setDirty] = useState(false)
  const { busy: running, error, run, reset } = useAction<'apply'>()
  const busy = running !== null
  const [confirmClear, setConfirmClear] = useState(false)
  const [showErrors, setShowErrors] = useState(false)

  // Follow the server until the person starts editing (adjusted during render, not in an effect).
  const [followed, setFollowed] = useState<{ data: typeof faults.data; dirty: boolean }>({ data: null, dirty: true })
  if (followed.data !== faults.data || followed.dirty !== dirty) {
    setFollowed({ data: faults.data, dirty })
    if (faults.data && !dirty) setDrafts(faults.data.map(draftOf))
  }

  const edit = (next: FaultDraft[]) => {
    setDrafts(next)
    setDirty(true)
  }
  const list = drafts ?? []
  const checked = list.map(ruleOf)
  const invalid = checked.some((result) => result.rule === null)
  const live = faults.data?.length ?? 0

  const apply = async () => {
    setShowErrors(true)
    if (invalid) return
    await run('apply', async () => {
      const saved = await saveFaults(checked.map((result) => result.rule).filter((rule) => rule !== null))
      setDrafts(saved.map(draftOf))
      setDirty(false)
      setShowErrors(false)
      toast.success(
        saved.length === 0
          ? 'No fault rules in force'
          : `${saved.length} fault rule${saved.length === 1 ? '' : 's'} in force`
      )
    })
  }

  return (
    <Card
      title="Fault injection"
      description="Make the service API slow, failing, rate-limited or offline, to test how a plugin copes. The first rule that matches a request decides. The control plane and this UI are never affected."
      actions={live > 0 ? <Badge tone="warning">{live} active</Badge> : <Badge tone="neutral">none active</Badge>}
      testId="fault-editor"
    >
      {failedWithoutData(faults) ? (
        <ErrorState error={faults.error} title="Could not read the fault rules" onRetry={() => void loadFaults()} />
      ) : drafts === null ? (
        <div aria-hidden="true" className="stack">
          <Skeleton width="100%" height={64} radius={8} />
        </div>
      ) : (
        <div className="stack">
          {list.length === 0 ? (
            <EmptyState compact title="No fault rules">
              Every request is served normally. Add a rule, or start from a template.
            </EmptyState>
          ) : (
            <ol className="fault-list">
              {list.map((draft, index) => (
                <RuleRow
                  key={draft.key}
                  draft={draft}
                  index={index}
                  count={list.length}
                  errors={showErrors ? (checked[index]?.errors ?? {}) : {}}
                  onChange={(patch) => edit(list.map((d) => (d.key === draft.key ? { ...d, ...patch } : d)))}
                  onMove={(delta) => {
                    const next = [...list]
                    const [moved] = next.splice(index, 1)
                    if (moved) next.splice(index + delta, 0, moved)
                    edit(next)
                  }}
                  onRemove={() => edit(list.filter((d) => d.key !== draft.key))}
                />
              ))}
            </ol>
          )}
          <div className="fault-templates">
            <span className="muted small">Add:</span>
            <Button size="sm" icon="plus" needsServer={false} onClick={() => edit([...list, newDraft()])}>
              Empty rule
            </Button>
            {FAULT_TEMPLATES.map((template) => (
              <Button
                key={template.label}
                size="sm"
                variant="ghost"
                needsServer={false}
                onClick={() => edit([...list, newDraft(template.draft)])}
              >
                {template.label}
              </Button>
            ))}
          </div>
          <InlineError error={error} />
          <div className="button-row button-row--end">
            {dirty ? <span className="muted small">Unsaved changes</span> : null}
            <Button
              variant="ghost"
              needsServer={false}
              disabled={!dirty || busy}
              onClick={() => {
                setDrafts((faults.data ?? []).map(draftOf))
                setDirty(false)
                setShowErrors(false)
                reset()
              }}
            >
              Discard changes
            </Button>
            <Button variant="danger" disabled={live === 0 || busy} onClick={() => setConfirmClear(true)}>
              Remove all
            </Button>
            <Button
              variant="primary"
              busy={busy}
              disabled={!dirty}
              onClick={() => void apply()}
              data-testid="apply-faults"
            >
              Apply rules
            </Button>
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirmClear}
        title="Remove every fault rule?"
        description="Requests are served normally again."
        confirmLabel="Remove all"
        variant="danger"
        onClose={() => setConfirmClear(false)}
        onConfirm={async () => {
          await clearFaults()
          setDirty(false)
          setConfirmClear(false)
          toast.success('Fault rules removed')
        }}
      />
    </Card>
  )
}
