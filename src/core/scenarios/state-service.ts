import type { Store } from '../store/store'
import type { Clock } from '../clock/clock'
import type { SecretBox } from '../crypto/secret-box'
import { DomainError } from '../errors/domain-error'
import { exportState } from './state-export'
import { importState, resetState } from './state-import'
import type { ImportCounts } from './state-import'
import { PRESETS, findPreset } from './presets'
import type { ScenarioDocument } from './scenario-schema'

/** Whole-state operations: export, atomic import, reset, and the built-in presets. */
export interface StateService {
  export(meta?: { name?: string; description?: string }): ScenarioDocument
  import(document: unknown): ImportCounts
  /** Empties all data; keys and settings stay. `afterReset` clears the in-memory parts (faults, clock). */
  reset(): void
  presets(): { name: string; title: string; description: string }[]
  loadPreset(name: string): ImportCounts
}

export function createStateService(deps: { store: Store; clock: Clock; secretBox: SecretBox | null; afterReset: () => void }): StateService {
  const { store, clock, secretBox } = deps
  return {
    export: (meta) => exportState(store, meta),
    import: (document) => importState(store, document, secretBox),
    reset() {
      resetState(store)
      deps.afterReset()
    },
    presets: () => PRESETS.map(({ name, title, description }) => ({ name, title, description })),
    loadPreset(name) {
      const preset = findPreset(name)
      if (!preset)
        throw new DomainError(
          'PRESET_NOT_FOUND',
          `${/^[a-z0-9-]{1,64}$/.test(name) ? `No preset is named "${name}".` : 'No preset has that name.'} GET /_emulator/presets lists them.`
        )
      return importState(store, preset.build(clock.now()), secretBox)
    }
  }
}
