import type { Store } from '../store/store'
import { SECTIONS } from './scenario-tables'
import { SCENARIO_FORMAT, SCENARIO_VERSION } from './scenario-schema'
import type { ScenarioDocument, ScenarioRow } from './scenario-schema'

/**
 * The whole state as a scenario document: hashes and ciphertext, never a plain secret.
 * Rows and keys come out in a fixed order, so the same state always gives the same bytes.
 */
export function exportState(store: Store, meta: { name?: string; description?: string } = {}): ScenarioDocument {
  const document: ScenarioDocument = { format: SCENARIO_FORMAT, version: SCENARIO_VERSION }
  if (meta.name !== undefined) document.name = meta.name
  if (meta.description !== undefined) document.description = meta.description
  store.transaction(() => {
    for (const spec of SECTIONS) {
      const columns = spec.columns.map((c) => c.column).join(', ')
      const rows = store.db.prepare(`SELECT ${columns} FROM ${spec.table} ORDER BY ${spec.orderBy}`).all() as Record<string, unknown>[]
      document[spec.section] = rows.map((row) => {
        const out: ScenarioRow = {}
        for (const column of spec.columns) {
          const value = row[column.column]
          out[column.field] = column.type === 'boolean' ? value === 1 : (value as string | number | null)
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
