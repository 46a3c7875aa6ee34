import { existsSync, renameSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import type { Database } from 'better-sqlite3'

import { migrate } from './migrate'
import type { Migration } from './migrations'
import { nativeBindingOption } from './native-binding'
import { WAL_SIZE_LIMIT_BYTES } from './wal-size'

/**
 * The request inspector's log lives in a database file of its own, beside the emulator's: its
 * worker thread writes it over its own connection (src/core/inspector/request-log-worker.ts), so
 * recording a request takes no write lock the licensing calls need, and another program holding
 * the emulator database's lock does not stop the inspector. An in-memory emulator keeps an
 * in-memory log.
 */
export function requestLogPathFor(databasePath: string): string {
  return databasePath === ':memory:' ? ':memory:' : `${databasePath}.requests`
}

/** The log file's own schema, versioned by its PRAGMA user_version as the emulator database is. */
export const requestLogMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'request inspector ring',
    // The columns of request_log as the emulator database held it up to its version 12.
    sql: `
      CREATE TABLE request_log (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        at              TEXT NOT NULL,
        surface         TEXT NOT NULL,
        method          TEXT NOT NULL,
        path            TEXT NOT NULL,
        status          INTEGER NOT NULL,
        duration_ms     REAL NOT NULL,
        auth_kind       TEXT NOT NULL,
        product_id      TEXT,
        request_json    TEXT NOT NULL,
        response_json   TEXT NOT NULL,
        source          TEXT NOT NULL DEFAULT 'client',
        error_code      TEXT,
        fault_rule_id   TEXT,
        fault_kind      TEXT,
        fault_label     TEXT,
        answered_by     TEXT NOT NULL DEFAULT 'emulator',
        upstream_status INTEGER,
        upstream_ms     REAL,
        fault_stage     TEXT
      );
      CREATE INDEX request_log_by_surface ON request_log (surface, id);
      CREATE INDEX request_log_by_product ON request_log (product_id, id);
    `
  }
]

export const latestRequestLogVersion = requestLogMigrations.reduce((max, m) => Math.max(max, m.version), 0)

/** The columns both files' request_log share, in the order above. */
const LOG_COLUMNS =
  'id, at, surface, method, path, status, duration_ms, auth_kind, product_id, request_json, response_json, source, ' +
  'error_code, fault_rule_id, fault_kind, fault_label, answered_by, upstream_status, upstream_ms, fault_stage'

/**
 * Opens (creating and migrating) the log file. WAL, as the emulator database: its reader and
 * writer never wait for each other. `synchronous = NORMAL`: a crash of the machine may lose the
 * last moments of the log, never corrupt it.
 *
 * A file that is no log this build can read (damaged, not SQLite, written by a newer build) is a
 * log, not data: it is set aside beside itself (`<file>.unreadable-<time>`, told to
 * `onSetAside`) and a new one is started, so the inspector goes on recording.
 */
export function openRequestLogDatabase(
  path: string,
  nativeBinding?: string,
  onSetAside?: (setAsidePath: string, reason: string) => void
): Database {
  try {
    return openLog(path, nativeBinding)
  } catch (error) {
    if (path === ':memory:' || !isUnreadable(error)) throw error
    const setAside = `${path}.unreadable-${Date.now()}`
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(`${path}${suffix}`)) renameSync(`${path}${suffix}`, `${setAside}${suffix}`)
    }
    onSetAside?.(setAside, error instanceof Error ? error.message : String(error))
    return openLog(path, nativeBinding)
  }
}

function openLog(path: string, nativeBinding: string | undefined): Database {
  // better-sqlite3 refuses a missing folder with a TypeError of its own; it is the storage fault
  // SQLite would report (the data folder deleted while the emulator runs), retried as one.
  if (path !== ':memory:' && !existsSync(dirname(path)))
    throw Object.assign(new Error(`${path} cannot be opened: its folder ${dirname(path)} does not exist`), {
      code: 'SQLITE_CANTOPEN'
    })
  const db = new BetterSqlite3(path, nativeBindingOption(nativeBinding))
  try {
    if (path !== ':memory:') {
      db.pragma('journal_mode = WAL')
      // After a burst the WAL is cut back to this size at the next checkpoint, as the database's is.
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`)
    }
    db.pragma('synchronous = NORMAL')
    // Only this process's own connections touch the file; a brief wait covers a checkpoint.
    db.pragma('busy_timeout = 100')
    migrate(db, latestRequestLogVersion, requestLogMigrations)
  } catch (error) {
    db.close()
    throw error
  }
  return db
}

/** Whether opening failed on the file's content (not on the disk or a lock, which pass). */
function isUnreadable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return true
  return error instanceof Error && error.message.includes('is newer than this build supports')
}

/**
 * Up to its version 12 the emulator database held the log itself (table request_log). Before the
 * migration that drops that table runs, its rows are copied into the log file, ids and all, so an
 * upgrade loses no recorded request and new ids go on from the old ones. An empty table makes no file.
 */
export function moveRequestLogToItsFile(db: Database, databasePath: string, nativeBinding?: string): void {
  if (db.prepare('SELECT EXISTS (SELECT 1 FROM main.request_log)').pluck().get() !== 1) return
  const log = openRequestLogDatabase(requestLogPathFor(databasePath), nativeBinding)
  log.close()
  db.prepare('ATTACH DATABASE ? AS request_log_file').run(requestLogPathFor(databasePath))
  try {
    db.transaction(() => {
      db.exec(
        `INSERT OR IGNORE INTO request_log_file.request_log (${LOG_COLUMNS}) SELECT ${LOG_COLUMNS} FROM main.request_log ORDER BY id`
      )
    }).immediate()
  } finally {
    db.exec('DETACH DATABASE request_log_file')
  }
}
