import type { Database, Statement } from 'better-sqlite3'

import type { EntityKind } from '../../shared/contract/changes'

/** Which entity a data table's rows belong to, and the column naming that entity. */
const TABLE_ENTITIES: Readonly<Record<string, { entity: EntityKind; idColumn: string }>> = {
  developers: { entity: 'developer', idColumn: 'id' },
  products: { entity: 'product', idColumn: 'id' },
  storefronts: { entity: 'product', idColumn: '' },
  product_credentials: { entity: 'credential', idColumn: 'id' },
  credential_audit: { entity: 'credential', idColumn: 'credential_id' },
  connection_status: { entity: 'connection', idColumn: 'product_id' },
  customers: { entity: 'customer', idColumn: 'id' },
  marketing_preferences: { entity: 'customer', idColumn: 'customer_id' },
  orders: { entity: 'order', idColumn: 'id' },
  order_items: { entity: 'order', idColumn: 'order_id' },
  subscriptions: { entity: 'subscription', idColumn: 'id' },
  entitlements: { entity: 'entitlement', idColumn: 'id' },
  licenses: { entity: 'license', idColumn: 'id' },
  activations: { entity: 'activation', idColumn: 'id' },
  product_files: { entity: 'file', idColumn: 'id' }
}

/** Where a statement's entity id comes from: a positional parameter, a named one, or unknown. */
type IdSource = { position: number } | { name: string } | null

export interface WrittenStatement {
  table: string
  entity: EntityKind
  idSource: IdSource
}

const WRITE =
  /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+([A-Za-z_]\w*)/i

/** What a write statement changes, read from its SQL once when it is prepared; null for reads and other tables. */
export function describeWrite(sql: string): WrittenStatement | null {
  const table = WRITE.exec(sql)?.[1]?.toLowerCase()
  const target = table === undefined ? undefined : TABLE_ENTITIES[table]
  if (!target || table === undefined) return null
  return { table, entity: target.entity, idSource: target.idColumn ? idSourceOf(sql, target.idColumn) : null }
}

function idSourceOf(sql: string, column: string): IdSource {
  const insert = /^\s*(?:INSERT|REPLACE)[^(]*\(([^)]*)\)\s*VALUES\s*\(([^)]*)\)/i.exec(sql)
  if (insert) {
    const columns = (insert[1] ?? '').split(',').map((name) => name.trim().toLowerCase())
    const values = (insert[2] ?? '').split(',').map((value) => value.trim())
    const index = columns.indexOf(column)
    const value = values[index]
    if (index < 0 || value === undefined) return null
    if (value.startsWith('@') || value.startsWith(':') || value.startsWith('$')) return { name: value.slice(1) }
    if (value !== '?') return null
    return { position: values.slice(0, index).filter((v) => v === '?').length }
  }
  const where = new RegExp(`\\bWHERE\\s+(?:[\\s\\S]*\\s)?${column}\\s*=\\s*(\\?|[@:$]\\w+)`, 'i').exec(sql)
  if (!where || where[1] === undefined) return null
  if (where[1] !== '?') return { name: where[1].slice(1) }
  return { position: (sql.slice(0, where.index + where[0].length - 1).match(/\?/g) ?? []).length }
}

function idOf(source: IdSource, args: unknown[]): string | null {
  if (!source) return null
  if ('name' in source) {
    const named = args.find((arg) => arg !== null && typeof arg === 'object' && !Array.isArray(arg)) as
      Record<string, unknown> | undefined
    const value = named?.[source.name]
    return typeof value === 'string' ? value : null
  }
  const positional = args.flatMap((arg) =>
    Array.isArray(arg) ? arg : arg !== null && typeof arg === 'object' ? [] : [arg]
  )
  const value = positional[source.position]
  return typeof value === 'string' ? value : null
}

/**
 * Observes every write to a data table made through `db`, whoever makes it (a route, a
 * licensing call, the CLI), so the change feed needs no call in each repository: the
 * database's `prepare` is wrapped once, and each write statement reports the entity (and its
 * id when the SQL names it) after a run that changed rows. Reads and the request log are not
 * wrapped and cost nothing.
 */
export function observeWrites(
  db: Database,
  onWrite: (entity: EntityKind, id: string | null, table: string) => void
): void {
  const prepare = db.prepare.bind(db) as (sql: string) => Statement
  // better-sqlite3 offers no update hook; wrapping this one instance's prepare is the narrowest seam.
  ;(db as { prepare: (sql: string) => Statement }).prepare = (sql: string) => {
    const statement = prepare(sql)
    const written = describeWrite(sql)
    if (!written) return statement
    const run: (...args: unknown[]) => ReturnType<Statement['run']> = statement.run.bind(statement)
    ;(statement as { run: (...args: unknown[]) => ReturnType<Statement['run']> }).run = (...args: unknown[]) => {
      const info = run(...args)
      if (info.changes > 0) onWrite(written.entity, idOf(written.idSource, args), written.table)
      return info
    }
    return statement
  }
}
