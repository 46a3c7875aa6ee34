import type { WholeStateCause } from '../../shared/contract/changes'
import { MAX_CLOCK_OFFSET_S } from '../../shared/contract/clock'
import type { ChangeFeed } from '../changes/change-feed'
import type { Clock } from '../clock/clock'
import type { SecretBox } from '../crypto/secret-box'
import { DomainError } from '../errors/domain-error'
import { createFaultRules } from '../faults/fault-rules'
import type { FaultRuleInput, FaultRules } from '../faults/fault-rules'
import { RequestLogReplaceError } from '../inspector/request-log'
import type { RequestLog, StagedReplace } from '../inspector/request-log'
import type { RuntimeSettings } from '../settings/runtime-settings'
import type { Store } from '../store/store'
import { findPreset, PRESETS } from './presets'
import type { ScenarioDocument } from './scenario-schema'
import { SECTIONS } from './scenario-tables'
import type { SectionSpec } from './scenario-tables'
import { exportState } from './state-export'
import type { ExportOptions } from './state-export'
import { checkScenario, columnValues, describeSqliteError, invalid, resetState, writeScenario } from './state-import'
import type { ImportCounts } from './state-import'

/**
 * Whole-state operations: export, atomic import, reset and the built-in presets. The state is
 * the data, the credential audit trail, the connection records, the clock, the fault rules,
 * the runtime settings and the request log; each operation announces one `everything` change.
 */
export interface StateService {
  export(options?: ExportOptions): ScenarioDocument
  /** Replaces the whole state: data, request log (the document's, or none), clock, fault rules, and the settings it names. */
  import(document: unknown): ImportCounts
  /** What an import of this document would put in place, checked as the import checks it, nothing written. */
  preview(document: unknown): ImportPreview
  /** Empties all data and the request log, clears the fault rules, puts the clock back. Keys and settings stay. */
  reset(): void
  presets(): { name: string; title: string; description: string }[]
  /** Imports a built-in scenario: as an import, so the request log, the clock and the fault rules start over too. */
  loadPreset(name: string): ImportCounts
}

/** What a scenario document holds, before it replaces the state (the UI's import confirmation). */
export interface ImportPreview {
  counts: ImportCounts
  /** Where the clock goes: an offset from the system time, or an absolute now (none: the system time). */
  clock: { offsetS: number } | { now: string }
  faults: FaultRuleInput[]
  /** The settings it sets; null: they stay as they are. */
  settings: ScenarioDocument['settings'] | null
}

export interface StateServiceDeps {
  store: Store
  clock: Clock
  secretBox: SecretBox | null
  faults: FaultRules
  settings: RuntimeSettings
  requests: RequestLog
  changes: ChangeFeed
}

/** The request log's section: its rows live in the log's own file. */
const REQUESTS = SECTIONS.find((spec) => spec.onRequest) as SectionSpec

export function createStateService(deps: StateServiceDeps): StateService {
  const { store, clock, secretBox, faults, settings, requests, changes } = deps

  /** The document as an import writes it, every check but the database's own done. */
  function checked(input: unknown): { document: ScenarioDocument; rules: FaultRuleInput[]; now: string | undefined } {
    const document = checkScenario(input, secretBox)
    const rules = document.faults ?? []
    checkFaultRules(rules)
    const now = document.clock?.now
    if (now !== undefined && !(Math.abs(Date.parse(now) - Date.now()) <= MAX_CLOCK_OFFSET_S * 1000)) {
      throw invalid('/clock/now', 'is not a real date within 100 years of the system time', { value: now })
    }
    return { document, rules, now }
  }

  function replaceWith(input: unknown, cause: WholeStateCause): ImportCounts {
    const { document, rules, now } = checked(input)
    // The log lives in a file of its own: its rows are written first and committed only once the
    // rest of the state is, so a document either file refuses changes neither. What the log had
    // queued belongs to the state being replaced: the replace removes it.
    const logRows = document[REQUESTS.section] ?? []
    let staged: StagedReplace
    try {
      staged = requests.stageReplace(
        REQUESTS.columns.map((column) => column.column),
        logRows.map((row) => columnValues(REQUESTS, row))
      )
    } catch (error) {
      if (!(error instanceof RequestLogReplaceError)) throw error
      throw invalid(`/${REQUESTS.section}/${error.index}`, describeSqliteError(error.reason))
    }
    let counts: ImportCounts
    try {
      counts = changes.quietly(() => {
        const written = writeScenario(store, document, secretBox)
        if (now !== undefined) clock.setNow(new Date(now))
        else clock.setOffsetMs((document.clock?.offsetS ?? 0) * 1000)
        faults.replace(rules)
        if (document.settings) settings.update(document.settings)
        return written
      })
    } catch (error) {
      staged.rollback()
      throw error
    }
    staged.commit()
    counts[REQUESTS.section] = logRows.length
    changes.announce({ kind: 'everything', cause })
    return counts
  }

  return {
    export(options) {
      // A request that has finished is in the exported log, as in the inspector's list (a read of the log waits for it).
      return exportState(
        store,
        { clockOffsetS: clock.offsetMs() / 1000, settings: settings.get(), faults: faults.list() },
        options,
        (spec) => requests.rows(spec.columns.map((column) => column.column))
      )
    },
    import: (document) => replaceWith(document, 'import'),
    preview(input) {
      const { document, rules, now } = checked(input)
      const counts = Object.fromEntries(
        SECTIONS.map((spec) => [spec.section, (document[spec.section] ?? []).length])
      ) as ImportCounts
      return {
        counts,
        clock: now !== undefined ? { now } : { offsetS: document.clock?.offsetS ?? 0 },
        faults: rules,
        settings: document.settings ?? null
      }
    },
    reset() {
      changes.quietly(() => {
        resetState(store)
        requests.clear()
        faults.clear()
        clock.setOffsetMs(0)
      })
      changes.announce({ kind: 'everything', cause: 'reset' })
    },
    presets: () => PRESETS.map(({ name, title, description }) => ({ name, title, description })),
    loadPreset(name) {
      const preset = findPreset(name)
      if (!preset)
        throw new DomainError(
          'PRESET_NOT_FOUND',
          `${/^[a-z0-9-]{1,64}$/.test(name) ? `No preset is named "${name}".` : 'No preset has that name.'} The presets are ${PRESETS.map((p) => p.name).join(', ')}.`
        )
      return replaceWith(preset.build(clock.now()), 'preset')
    }
  }
}

/** The rules as the fault engine checks them, on a scratch engine: a bad rule is refused before anything changes. */
function checkFaultRules(rules: NonNullable<ScenarioDocument['faults']>): void {
  try {
    createFaultRules().replace(rules)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const detail = (error.details as { details?: { path?: string; problem?: string }[] } | undefined)?.details?.[0]
    throw invalid((detail?.path ?? '/rules').replace(/^\/rules/, '/faults'), detail?.problem ?? error.message)
  }
}
