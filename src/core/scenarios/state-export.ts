import type { FaultRule } from '../faults/fault-rules'
import type { RuntimeSettingsValues } from '../settings/runtime-settings'
import type { Store } from '../store/store'
import { createScenarioRepository } from './scenario-repository'
import { SCENARIO_FORMAT, SCENARIO_VERSION } from './scenario-schema'
import type { ScenarioDocument, ScenarioRow } from './scenario-schema'
import { SECTIONS } from './scenario-tables'
import type { SectionSpec } from './scenario-tables'

/** What a scenario holds besides the tables: the in-memory state. */
export interface RuntimeState {
  clockOffsetS: number
  settings: RuntimeSettingsValues
  faults: FaultRule[]
}

export interface ExportOptions {
  name?: string | undefined
  description?: string | undefined
  /** Include the (already redacted) request log. */
  includeRequests?: boolean | undefined
}

/**
 * The whole state as a scenario document: hashes and ciphertext, never a plain secret (the
 * audit trail and the request log are redacted when written). Keys and rows come out in a
 * fixed order, so the same state always gives the same bytes. `runtime` is the in-memory
 * state (clock, settings, fault rules).
 */
export function exportState(
  store: Store,
  runtime: RuntimeState | null,
  options: ExportOptions = {},
  /** The request log's rows (it lives in a file of its own), for `includeRequests`. */
  requestRows: (spec: SectionSpec) => Record<string, unknown>[] = () => []
): ScenarioDocument {
  const document: ScenarioDocument = { format: SCENARIO_FORMAT, version: SCENARIO_VERSION }
  if (options.name !== undefined) document.name = options.name
  if (options.description !== undefined) document.description = options.description
  // Null: a database file read without its server (the CLI), whose clock, rules and settings are not known.
  if (runtime) {
    document.clock = { offsetS: runtime.clockOffsetS }
    document.settings = { ...runtime.settings }
    document.faults = runtime.faults.map((rule) => ({ ...rule }))
  }
  const tables = createScenarioRepository(store)
  // One snapshot without the write lock: an export answers while another program holds that lock.
  store.read(() => {
    for (const spec of SECTIONS) {
      if (spec.onRequest && !options.includeRequests) continue
      document[spec.section] = (spec.onRequest ? requestRows(spec) : tables.rowsOf(spec)).map((row) => {
        const out: ScenarioRow = {}
        for (const column of spec.columns) {
          const value = row[column.column]
          out[column.field] =
            column.type === 'boolean'
              ? value === 1
              : column.type === 'json' && typeof value === 'string'
                ? (JSON.parse(value) as unknown)
                : value
        }
        return out
      })
    }
  })
  return document
}

/** The document as written to disk or sent: two-space JSON with a trailing newline. */
export function serializeScenario(document: ScenarioDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`
}
