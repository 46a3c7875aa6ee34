import type { Static } from 'typebox'
import { create } from 'zustand'

import type {
  RecordingSummarySchema,
  ReplayStateSchema,
  ScenarioFromRecordingResponse
} from '../../../shared/schemas/recordings'
import { saveTextFile } from '../platform/save-file'
import { requireApi } from './connection'
import { idle, loadInto, ready } from './resource'
import type { Resource } from './resource'

/** One recording as the list shows it (docs/upstream.md, "Record, replay, reproduce"). */
export type RecordingSummary = Static<typeof RecordingSummarySchema>
export type ReplayState = Static<typeof ReplayStateSchema>
export type ScenarioNote = Static<typeof ScenarioFromRecordingResponse>['notes'][number]

export interface RecordingsState {
  recordings: Resource<RecordingSummary[]>
  replay: Resource<ReplayState>
  /** The notes of the last scenario made, with the recording they came from. */
  lastScenario: { recordingId: string; notes: ScenarioNote[] } | null
  load(): Promise<void>
  start(name: string): Promise<RecordingSummary>
  stop(id: string): Promise<void>
  remove(id: string): Promise<void>
  /** Saves the recording document as a JSON file; false when the save dialog was cancelled. */
  download(recording: RecordingSummary): Promise<boolean>
  /** Puts a recording in force (null: stop replaying). */
  setReplay(id: string | null, options: { strict: boolean; resign: boolean }): Promise<ReplayState>
  /** Makes a scenario from a recording and saves it as a file; the notes stay to be read. */
  makeScenario(recording: RecordingSummary, credential: { pluginKey: string; pluginSecret: string }): Promise<boolean>
}

const fileNameOf = (recording: RecordingSummary, suffix: string) =>
  `${recording.name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || recording.id}${suffix}`

export const useRecordings = create<RecordingsState>()((set, get) => ({
  recordings: idle(),
  replay: idle(),
  lastScenario: null,
  async load() {
    await Promise.all([
      loadInto({ get, set }, 'recordings', () => requireApi().control.recordings()),
      loadInto({ get, set }, 'replay', () => requireApi().control.replay())
    ])
  },
  async start(name) {
    const started = await requireApi().control.startRecording(name.trim() || undefined)
    await get().load()
    return started
  },
  async stop(id) {
    await requireApi().control.stopRecording(id)
    await get().load()
  },
  async remove(id) {
    await requireApi().control.deleteRecording(id)
    await get().load()
  },
  async download(recording) {
    const document = await requireApi().control.recording(recording.id)
    return saveTextFile(
      fileNameOf(recording, '.recording.json'),
      `${JSON.stringify(document, null, 2)}\n`,
      'application/json'
    )
  },
  async setReplay(id, options) {
    const recording = id === null ? null : await requireApi().control.recording(id)
    const replay = await requireApi().control.setReplay({ recording, ...options })
    set({ replay: ready(replay) })
    return replay
  },
  async makeScenario(recording, credential) {
    const given = credential.pluginKey.trim() !== '' && credential.pluginSecret.trim() !== ''
    const made = await requireApi().control.scenarioFromRecording(
      recording.id,
      given ? { pluginKey: credential.pluginKey.trim(), pluginSecret: credential.pluginSecret.trim() } : {}
    )
    set({ lastScenario: { recordingId: recording.id, notes: made.notes } })
    return saveTextFile(
      fileNameOf(recording, '.scenario.json'),
      `${JSON.stringify(made.scenario, null, 2)}\n`,
      'application/json'
    )
  }
}))
