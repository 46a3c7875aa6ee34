import BetterSqlite3 from 'better-sqlite3'
import type { Database } from 'better-sqlite3'

import { migrate } from './migrate'
import { latestSchemaVersion } from './migrations'
import { nativeBindingOption } from './native-binding'

export interface StoreOptions {
  /** A file path, or ':memory:'. */
  path: string
  /**
   * Absolute path of a better_sqlite3.node to load instead of the one in node_modules.
   * The desktop app passes the Electron-ABI build here; Node (tests, `serve`) uses the default, or
   * the build PLUGIN_LICENSE_EMULATOR_NATIVE_BINDING names (./native-binding.ts).
   */
  nativeBinding?: string
  /** Stop migrating at this version (tests of migrations only). */
  migrateTo?: number
}

export const WAL_CHECKPOINT_PAGES = 10_000
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024

/** The single owner of the SQLite connection. Services receive it; nothing else opens the file. */
export interface Store {
  readonly db: Database
  readonly path: string
  /** Runs `work` in one IMMEDIATE transaction: all of it or none of it. */
  transaction<T>(work: () => T): T
  close(): void
}

export function openStore(options: StoreOptions): Store {
  const db = new BetterSqlite3(options.path, nativeBindingOption(options.nativeBinding))
  try {
    if (options.path !== ':memory:') db.pragma('journal_mode = WAL')
    db.pragma('foreign_keys = ON')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    if (options.path !== ':memory:') {
      // Checkpoint every 10,000 WAL pages (40 MB), not SQLite's 1,000: the licensing calls and the
      // request log rewrite the same hot pages, and a checkpoint copies each page once however often
      // it changed. Measured in process: 15-23 us less main-thread time per verify and activate,
      // 8 per validate. The WAL file is cut back to 64 MB at most after a checkpoint.
      db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`)
      db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`)
    }
    migrate(db, options.migrateTo ?? latestSchemaVersion)
  } catch (error) {
    db.close()
    throw error
  }
  let closed = false
  // One wrapper for every transaction: db.transaction() builds a new one each call (8 us, measured).
  const immediate = db.transaction((work: () => unknown) => work()).immediate
  return {
    db,
    path: options.path,
    transaction: <T>(work: () => T) => immediate(work) as T,
    close() {
      if (closed) return
      closed = true
      // Fold the WAL into the database file, so a copy of the .db alone holds everything.
      if (options.path !== ':memory:') {
        try {
          db.pragma('wal_checkpoint(TRUNCATE)')
        } catch {
          // Another connection is reading; SQLite checkpoints when the last one closes.
        }
      }
      db.close()
    }
  }
}
