import BetterSqlite3 from 'better-sqlite3'

import { nativeBindingOption } from './native-binding'

/** Where `serve` holds its lock: beside the database, as the runtime key is. */
export function databaseLockPathFor(databasePath: string): string {
  return `${databasePath}.lock`
}

/** Another `serve` holds the database. */
export class DatabaseLockedError extends Error {
  readonly code = 'SQLITE_BUSY'
}

export interface DatabaseLock {
  release(): void
}

/**
 * One `serve` per database file. SQLite's WAL mode lets many processes write one database (and
 * `export-state` reads it while a server runs), so the lock is a separate SQLite file held in an
 * open EXCLUSIVE transaction: the operating system drops it when the process ends, even by a
 * crash, so there is never a stale lock to clean up.
 */
export function acquireDatabaseLock(databasePath: string): DatabaseLock {
  const lock = new BetterSqlite3(databaseLockPathFor(databasePath), { timeout: 0, ...nativeBindingOption() })
  try {
    lock.exec('BEGIN EXCLUSIVE')
  } catch (error) {
    lock.close()
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DatabaseLockedError(`${databasePath} is in use by another serve`)
    }
    throw error
  }
  return { release: () => lock.close() }
}
