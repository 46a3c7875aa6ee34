import type { Database } from 'better-sqlite3'

import { latestSchemaVersion, migrations } from './migrations'
import type { Migration } from './migrations'

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

/**
 * Applies every migration of `list` (the emulator database's by default; the request log's file
 * has its own) above the database's version, up to `target`, each in its own transaction so a
 * failure leaves the database at the last good version.
 */
export function migrate(
  db: Database,
  target: number = latestSchemaVersion,
  list: readonly Migration[] = migrations
): number {
  const current = schemaVersion(db)
  const latest = list.reduce((max, m) => Math.max(max, m.version), 0)
  if (current > latest) {
    throw new Error(`Database schema version ${current} is newer than this build supports (${latest}).`)
  }
  for (const migration of list) {
    if (migration.version <= current || migration.version > target) continue
    // PRAGMA foreign_keys is a no-op inside a transaction: switched around it.
    const foreignKeys = db.pragma('foreign_keys', { simple: true }) === 1
    if (migration.rebuildsTables && foreignKeys) db.pragma('foreign_keys = OFF')
    try {
      db.transaction(() => {
        db.exec(migration.sql)
        if (migration.rebuildsTables) {
          const broken = db.pragma('foreign_key_check') as unknown[]
          if (broken.length > 0)
            throw new Error(`Migration ${migration.version} would break ${broken.length} references.`)
        }
        db.pragma(`user_version = ${migration.version}`)
      }).immediate()
    } finally {
      if (migration.rebuildsTables && foreignKeys) db.pragma('foreign_keys = ON')
    }
  }
  return schemaVersion(db)
}
