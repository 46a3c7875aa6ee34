import BetterSqlite3 from 'better-sqlite3'
import type { Database } from 'better-sqlite3'

import { createGroupCommit } from './group-commit'
import { migrate } from './migrate'
import { latestSchemaVersion } from './migrations'
import { nativeBindingOption } from './native-binding'
import { createStorageHealth, storageError, storageFaultOf } from './storage-faults'
import type { StorageHealth } from './storage-faults'
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
  /**
   * How long a write waits for another process's write lock before it fails with STORAGE_BUSY, in
   * ms (default BUSY_TIMEOUT_MS). The wait is asynchronous (Store.whenWritable, Store.groupCommit):
   * SQLite's own wait would block the event loop, so the connection's busy timeout stays at
   * SQLITE_BUSY_WAIT_MS.
   */
  busyTimeoutMs?: number
}

export interface TransactionOptions {
  /**
   * A write no request waits for (the request log's batches): its storage fault is thrown as the
   * domain's, but neither it nor its success starts or ends an episode (Store.health): small
   * writes can pass on a nearly full disk, and a banner must not come and go with them.
   */
  background?: boolean
}

export const BUSY_TIMEOUT_MS = 5000
/** SQLite's own (blocking) wait for a lock: long enough for a checkpoint's brief hold, short enough to block nothing. */
export const SQLITE_BUSY_WAIT_MS = 10

export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024
/** SQLite's own automatic checkpoint threshold, in WAL pages: used while no background checkpointer runs. */
export const AUTO_CHECKPOINT_PAGES = 1000

/** The single owner of the SQLite connection. Services receive it; nothing else opens the file. */
export interface Store {
  readonly db: Database
  readonly path: string
  /** Whether writes currently fail for storage (disk full, read-only, locked), and listeners to each episode. */
  readonly health: StorageHealth
  /**
   * Runs `work` in one IMMEDIATE transaction: all of it or none of it. A storage fault (disk
   * full, read-only, locked by another process) throws the domain error STORAGE_*.
   */
  transaction<T>(work: () => T, options?: TransactionOptions): T
  /**
   * Resolves once this connection could take the write lock, waiting asynchronously (the event
   * loop keeps answering) up to the busy timeout; then rejects with STORAGE_BUSY. Called before
   * a request's synchronous writes.
   */
  whenWritable(): Promise<void>
  /**
   * Runs `work` in a savepoint and keeps its writes, or, if storage refuses them (locked, full,
   * read-only), drops them and answers false: for writes a read can do without (a last-seen stamp).
   */
  writeIfPossible(work: () => void): boolean
  /** The domain error (STORAGE_*) a SQLite error is, recorded as a failed write; null when it is no storage fault. */
  storageErrorOf(error: unknown): Error | null
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
    db.pragma(`busy_timeout = ${SQLITE_BUSY_WAIT_MS}`)
    // After a burst the WAL file is cut back to this size at the next checkpoint.
    if (options.path !== ':memory:') db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`)
    migrate(db, options.migrateTo ?? latestSchemaVersion)
  } catch (error) {
    db.close()
    throw error
  }
  let closed = false
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS
  const health = createStorageHealth(options.path, busyTimeoutMs)
  // The database's own checkpoint stays on until the background one is running, and comes back if it stops.
  const checkpointer =
    options.checkpointInBackground && options.path !== ':memory:'
      ? startWalCheckpointer({
          path: options.path,
          nativeBinding: nativeBindingOption(options.nativeBinding).nativeBinding,
          onFailure: () => {
            if (!closed) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`)
          },
          isTransient: (error) => storageFaultOf(error) !== null
        })
      : null
  void checkpointer?.ready.then((running) => {
    if (running && !closed) db.pragma('wal_autocheckpoint = 0')
  })
  const rollbackListeners = new Set<() => void>()
  const rolledBack = () => {
    for (const listener of rollbackListeners) listener()
  }
  const isBusy = (error: unknown) => storageFaultOf(error) === 'STORAGE_BUSY'
  // One wrapper for every transaction: db.transaction() builds a new one each call (8 us, measured).
  const wrapped = db.transaction((work: () => unknown) => work())
  const immediate = wrapped.immediate
  const totalChanges = db.prepare('SELECT total_changes() AS n').pluck()
  /** Rows changed by stamps (writeIfPossible): not what ends an episode, nor what a commit must keep. */
  let stampChanges = 0
  const requestChanges = () => (totalChanges.get() as number) - stampChanges
  const group = createGroupCommit(db, rolledBack, { busyTimeoutMs, isBusy, lastingChanges: requestChanges })

  /** A storage error as the domain's, and the episode noted; anything else as it is. */
  const asDomainError = (error: unknown): unknown => {
    const fault = storageFaultOf(error)
    if (fault === null) return error
    health.failed(fault)
    return storageError(fault, options.path, busyTimeoutMs)
  }
  /** Runs a write; while an episode is on, a commit that changed something ends it. */
  const noting = <T>(write: () => T): T => {
    if (health.current() === null) return write()
    const before = requestChanges()
    const result = write()
    if (requestChanges() !== before) health.succeeded()
    return result
  }

  return {
    db,
    path: options.path,
    health,
    transaction<T>(work: () => T, how: TransactionOptions = {}): T {
      try {
        // All or none, committed on return: so the writes grouped before it are committed first.
        group.commitNow()
        return how.background ? (immediate(work) as T) : noting(() => immediate(work) as T)
      } catch (error) {
        rolledBack()
        if (how.background) {
          const fault = storageFaultOf(error)
          throw fault === null ? error : storageError(fault, options.path, busyTimeoutMs)
        }
        throw asDomainError(error)
      }
    },
    async whenWritable() {
      const deadline = Date.now() + busyTimeoutMs
      let pauseMs = 5
      for (;;) {
        // A group open in this turn may already hold the lock; an empty IMMEDIATE transaction takes and frees it.
        if (db.inTransaction) return
        try {
          db.exec('BEGIN IMMEDIATE')
          db.exec('COMMIT')
          return
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK')
          if (!isBusy(error)) throw asDomainError(error)
          if (Date.now() + pauseMs > deadline) throw asDomainError(error)
        }
        await new Promise((resolve) => setTimeout(resolve, pauseMs))
        pauseMs = Math.min(pauseMs * 2, 100)
      }
    },
    writeIfPossible(work) {
      // A stamp neither starts nor ends an episode (a small write can pass on a nearly full disk),
      // and a group whose only writes are stamps keeps its answers when its commit fails.
      const before = totalChanges.get() as number
      try {
        wrapped(work)
        return true
      } catch (error) {
        if (storageFaultOf(error) === null) throw error
        return false
      } finally {
        stampChanges += (totalChanges.get() as number) - before
      }
    },
    storageErrorOf(error) {
      const mapped = asDomainError(error)
      return mapped === error ? null : (mapped as Error)
    },
    async groupCommit(work) {
      // Whether the work wrote, counted only during an episode; the episode ends once that commits.
      let wrote = false
      try {
        const result = await group.run(() => {
          if (health.current() === null) return work()
          const before = requestChanges()
          const answer = work()
          wrote = requestChanges() !== before
          return answer
        })
        if (wrote) health.succeeded()
        return result
      } catch (error) {
        throw asDomainError(error)
      }
    },
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
