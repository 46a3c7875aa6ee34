import { existsSync, readFileSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'

import { nativeBindingOption } from '../../src/core/store/native-binding'

/**
 * Opens the emulator's SQLite file read-only beside the running server (WAL lets a reader in),
 * runs `work`, and closes it again.
 */
export function withReadOnlyDatabase<T>(databasePath: string, work: (db: BetterSqlite3.Database) => T): T {
  const db = new BetterSqlite3(databasePath, { readonly: true, fileMustExist: true, ...nativeBindingOption() })
  try {
    return work(db)
  } finally {
    db.close()
  }
}

/** Rows with status 'active' for a product, counted by the database itself. */
export function countActiveCredentials(databasePath: string, productId: string): number {
  return withReadOnlyDatabase(databasePath, (db) => {
    const row = db
      .prepare("SELECT COUNT(*) AS n FROM product_credentials WHERE product_id = ? AND status = 'active'")
      .get(productId) as { n: number }
    return row.n
  })
}

/** The raw bytes of the database file and its WAL / shared-memory companions, where they exist. */
export function databaseFileBytes(databasePath: string): Buffer {
  const parts = [databasePath, `${databasePath}-wal`, `${databasePath}-shm`, `${databasePath}-journal`]
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path))
  return Buffer.concat(parts)
}

/** A comparable picture of the stored state: every row of the tables the foundation writes. */
export function storedState(databasePath: string): Record<string, unknown[]> {
  return withReadOnlyDatabase(databasePath, (db) => {
    const tables = ['developers', 'products', 'product_credentials', 'credential_audit', 'connection_status']
    return Object.fromEntries(tables.map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all()]))
  })
}
