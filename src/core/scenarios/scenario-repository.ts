import type { Store } from '../store/store'
import { DATA_TABLES } from './scenario-tables'
import type { SectionSpec } from './scenario-tables'

/**
 * The SQL of a scenario's export and import, over the table descriptions of scenario-tables.ts:
 * one SELECT and one INSERT per section, built from its columns (names from that fixed list, never from input).
 */
export interface ScenarioRepository {
  /** Every row of a section's table as stored, in the section's order. */
  rowsOf(spec: SectionSpec): Record<string, unknown>[]
  /** A statement that inserts one row of the section, its values in column order. */
  inserterOf(spec: SectionSpec): (values: unknown[]) => void
  /** Empties every data table (signing keys and settings stay). */
  emptyDataTables(): void
  /** Rows may reference each other both ways (credential rotation links): keys are checked at commit. */
  deferForeignKeys(): void
  /** A storefront row for every slug the products name that has none. */
  addMissingStorefronts(): void
  /** How many rows reference rows that do not exist. */
  brokenReferences(): number
}

export function createScenarioRepository(store: Store): ScenarioRepository {
  const { db } = store
  return {
    rowsOf(spec) {
      const columns = spec.columns.map((c) => c.column).join(', ')
      return db.prepare(`SELECT ${columns} FROM ${spec.table} ORDER BY ${spec.orderBy}`).all() as Record<
        string,
        unknown
      >[]
    },
    inserterOf(spec) {
      const columns = spec.columns.map((c) => c.column)
      const insert = db.prepare(
        `INSERT INTO ${spec.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`
      )
      return (values) => void insert.run(values)
    },
    emptyDataTables() {
      for (const table of DATA_TABLES) db.prepare(`DELETE FROM ${table}`).run()
    },
    deferForeignKeys() {
      db.pragma('defer_foreign_keys = ON')
    },
    addMissingStorefronts() {
      db.prepare(
        'INSERT OR IGNORE INTO storefronts (slug, name, created_at) SELECT storefront_slug, storefront_slug, MIN(created_at) FROM products WHERE storefront_slug IS NOT NULL GROUP BY storefront_slug'
      ).run()
    },
    brokenReferences: () => (db.pragma('foreign_key_check') as unknown[]).length
  }
}
