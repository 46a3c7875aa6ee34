import BetterSqlite3 from 'better-sqlite3'
import type { Database } from 'better-sqlite3'

import { createGroupCommit } from './group-commit'
import { migrate } from './migrate'
import { latestSchemaVersion } from './migrations'
import { nativeBindingOption } from './native-binding'
import { startWalCheckpointer } from './wal-checkpointer'

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
  /**
   * Checkpoint the WAL from a worker thread (./wal-checkpointer.ts) instead of in whichever commit
   * crosses SQLite's threshold: for the server, whose thread answers requests. Short-lived users
   * (export-state) leave it off.
   */
  checkpointInBackground?: boolean
}

export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024
/** SQLite's own automatic checkpoint threshold, in WAL pages: used while no background checkpointer runs. */
export const AUTO_CHECKPOINT_PAGES = 1000

/** The single owner of the SQLite connection. Services receive it; nothing else opens the file. */
export interface Store {
  readonly db: Database
  readonly path: string
  /** Runs `work` in one IMMEDIATE transaction: all of it or none of it. */
  transaction<T>(work: () => T): T
  /**
   * Runs `work` at once, all of it or none of it, in the transaction shared by every such work of
   * this turn of the event loop; resolves after that commits (./group-commit.ts). For the reads and
   * writes of requests answered under load: one read snapshot and one commit a turn instead of one each.
   */
  groupCommit<T>(work: () => T): Promise<T>
  /** Called after any rollback: what was read since the rolled-back writes no longer holds. Returns the unsubscribe. */
  onRollback(listener: () => void): () => void
  close(): void
}

export function openStore(options: StoreOptions): Store {
  const db = new BetterSqlite3(options.path, nativeBindingOption(options.nativeBinding))
  try {
    if (options.path !== ':memory:') db.pragma('journal_mode = WAL')
    db.pragma('foreign_keys = ON')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    // After a burst the WAL file is cut back to this size at the next checkpoint.
    if (options.path !== ':memory:') db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`)
    migrate(db, options.migrateTo ?? latestSchemaVersion)
  } catch (error) {
    db.close()
    throw error
  }
  let closed = false
  // The database's own checkpoint stays on until the background one is running, and comes back if it stops.
  const checkpointer =
    options.checkpointInBackground && options.path !== ':memory:'
      ? startWalCheckpointer({
          path: options.path,
          nativeBinding: nativeBindingOption(options.nativeBinding).nativeBinding,
          onFailure: () => {
            if (!closed) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`)
          }
        })
      : null
  void checkpointer?.ready.then((running) => {
    if (running && !closed) db.pragma('wal_autocheckpoint = 0')
  })
  const rollbackListeners = new Set<() => void>()
  const rolledBack = () => {
    for (const listener of rollbackListeners) listener()
  }
  const group = createGroupCommit(db, rolledBack)
  // One wrapper for every transaction: db.transaction() builds a new one each call (8 us, measured).
  const immediate = db.transaction((work: () => unknown) => work()).immediate
  return {
    db,
    path: options.path,
    transaction<T>(work: () => T): T {
      // All or none, committed on return: so the writes grouped before it are committed first.
      group.commitNow()
      try {
        return immediate(work) as T
      } catch (error) {
        rolledBack()
        throw error
      }
    },
    groupCommit: (work) => group.run(work),
    onRollback(listener) {
      rollbackListeners.add(listener)
      return () => rollbackListeners.delete(listener)
    },
    close() {
      if (closed) return
      closed = true
      group.commitNow()
      checkpointer?.stop()
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
