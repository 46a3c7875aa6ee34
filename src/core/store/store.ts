import BetterSqlite3 from 'better-sqlite3'
import type { Database } from 'better-sqlite3'

import { watchDatabaseFile } from './database-file-watch'
import { createGroupCommit } from './group-commit'
import { createLockWaits } from './lock-waits'
import { migrate, schemaVersion } from './migrate'
import { latestSchemaVersion, REQUEST_LOG_MOVED_VERSION } from './migrations'
import { nativeBindingOption } from './native-binding'
import { moveRequestLogToItsFile } from './request-log-database'
import { createStorageHealth, databaseGoneMessage, storageError, storageFaultOf } from './storage-faults'
import type { StorageFaultCode, StorageHealth } from './storage-faults'
import { startWalCheckpointer } from './wal-checkpointer'
import type { WalCheckpointer } from './wal-checkpointer'
import { WAL_SIZE_LIMIT_BYTES } from './wal-size'

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
  /**
   * Open the file read-only, for a reader beside a running server (export-state): no migration, no
   * journal-mode change, no checkpoint on close, and a schema other than this build's is refused
   * (UnreadableDatabaseError). Only `read` (and reads outside it) work; a write fails STORAGE_READ_ONLY.
   */
  readOnly?: boolean
}

/** A file opened read-only whose schema this build cannot read: no emulator database at all, or another version's. */
export class UnreadableDatabaseError extends Error {
  constructor(
    readonly path: string,
    /** The file's schema version (PRAGMA user_version; 0: never migrated, so no emulator database). */
    readonly found: number,
    readonly expected: number
  ) {
    super(
      found === 0
        ? `${path} is not an emulator database`
        : `${path} has schema version ${found}; this build reads version ${expected}`
    )
    this.name = 'UnreadableDatabaseError'
  }
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

export { WAL_SIZE_LIMIT_BYTES } from './wal-size'
/** SQLite's own automatic checkpoint threshold, in WAL pages: used while no background checkpointer runs. */
export const AUTO_CHECKPOINT_PAGES = 1000
/** How long after the open the background checkpointer starts (see openStore). */
export const CHECKPOINTER_START_DELAY_MS = 1000

/** The single owner of the SQLite connection. Services receive it; nothing else opens the file. */
export interface Store {
  readonly db: Database
  readonly path: string
  /** The better_sqlite3.node this connection loaded, when not node_modules' own: other connections load the same. */
  readonly nativeBinding: string | undefined
  /** Whether writes currently fail for storage (disk full, read-only, locked), and listeners to each episode. */
  readonly health: StorageHealth
  /**
   * Runs `work` in one IMMEDIATE transaction: all of it or none of it. A storage fault (disk
   * full, read-only, locked by another process) throws the domain error STORAGE_*.
   */
  transaction<T>(work: () => T, options?: TransactionOptions): T
  /**
   * Runs `work`, which only reads, on one snapshot: a DEFERRED transaction, which in WAL mode reads
   * the last commit without the write lock, so it answers while another process holds that lock.
   * Inside an open transaction (a group of this turn, a transaction of its own) `work` runs in it
   * and sees its writes. A storage error is thrown as the domain's but starts no episode: reads
   * are not the writes Store.health reports on.
   */
  read<T>(work: () => T): T
  /**
   * Resolves once this connection could take the write lock, waiting asynchronously (the event
   * loop keeps answering) up to the busy timeout; then rejects with STORAGE_BUSY. Called before
   * a request's synchronous writes. `onWait` is called once, when the lock was refused and the
   * wait begins: not when the lock is free, nor when the waits were ended (Store.stopWaitingForLock).
   */
  whenWritable(onWait?: () => void): Promise<void>
  /**
   * Ends every wait for another program's write lock (whenWritable, a group's retries), now and
   * from now on: each fails STORAGE_BUSY as at the busy timeout. For a second signal while the
   * server stops, which would otherwise wait the whole timeout to write what memory still keeps.
   */
  stopWaitingForLock(): void
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
  if (options.readOnly) return openReadOnly(options)
  const db = new BetterSqlite3(options.path, nativeBindingOption(options.nativeBinding))
  try {
    if (options.path !== ':memory:') db.pragma('journal_mode = WAL')
    db.pragma('foreign_keys = ON')
    db.pragma('synchronous = NORMAL')
    db.pragma(`busy_timeout = ${SQLITE_BUSY_WAIT_MS}`)
    // After a burst the WAL file is cut back to this size at the next checkpoint.
    if (options.path !== ':memory:') db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`)
    const target = options.migrateTo ?? latestSchemaVersion
    if (target >= REQUEST_LOG_MOVED_VERSION && schemaVersion(db) < REQUEST_LOG_MOVED_VERSION) {
      // Up to the version before, the log lived in this file: its rows move to the log's own file first.
      migrate(db, REQUEST_LOG_MOVED_VERSION - 1)
      if (options.path !== ':memory:') moveRequestLogToItsFile(db, options.path, options.nativeBinding)
    }
    migrate(db, target)
  } catch (error) {
    db.close()
    throw error
  }
  let closed = false
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS
  const health = createStorageHealth(options.path, busyTimeoutMs)
  // The database's own checkpoint stays on until the background one is running, and comes back if it stops.
  const startCheckpointer = () => {
    const started = startWalCheckpointer({
      path: options.path,
      nativeBinding: nativeBindingOption(options.nativeBinding).nativeBinding,
      onFailure: () => {
        if (!closed) db.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`)
      },
      isTransient: (error) => storageFaultOf(error) !== null
    })
    void started.ready.then((running) => {
      if (running && !closed) db.pragma('wal_autocheckpoint = 0')
    })
    return started
  }
  let checkpointer: WalCheckpointer | null = null
  // Started a moment after the open, not beside it: a worker's boot is about 200 ms of CPU (a Node
  // realm of its own, better-sqlite3 loaded again), and on 2 cores it slowed the server's start by
  // 60-160 ms (bench/README.md). A new server writes little in its first second; SQLite's own
  // checkpoint covers it meanwhile.
  const checkpointerStart =
    options.checkpointInBackground && options.path !== ':memory:'
      ? setTimeout(() => {
          // Not on a file gone meanwhile: the worker would open whatever is at the path now.
          if (!closed && goneMessage === null) checkpointer = startCheckpointer()
        }, CHECKPOINTER_START_DELAY_MS)
      : null
  checkpointerStart?.unref()
  // Set once the file at the path is no longer the one open (deleted, moved or replaced): the connection
  // turns query-only, so every write fails as on a read-only file, through the paths that handle one.
  let goneMessage: string | null = null
  const messageOf = (fault: StorageFaultCode) =>
    fault === 'STORAGE_READ_ONLY' && goneMessage !== null ? goneMessage : undefined
  const errorOf = (fault: StorageFaultCode) => storageError(fault, options.path, busyTimeoutMs, messageOf(fault))
  const fileWatch =
    options.path === ':memory:'
      ? null
      : watchDatabaseFile(options.path, () => {
          if (closed) return
          goneMessage = databaseGoneMessage(options.path)
          db.pragma('query_only = ON')
          // Said at once (the health banner, serve's log), not at the next write.
          health.failed('STORAGE_READ_ONLY', goneMessage, { restartNeeded: true })
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
  // A read's storage fault is the domain's error, with no episode: Store.health is about writes.
  const read = readerOf(db, (error) => {
    const fault = storageFaultOf(error)
    return fault === null ? error : errorOf(fault)
  })
  /** Rows changed by stamps (writeIfPossible): not what ends an episode, nor what a commit must keep. */
  let stampChanges = 0
  const requestChanges = () => (totalChanges.get() as number) - stampChanges
  const lockWaits = createLockWaits()
  const group = createGroupCommit(db, rolledBack, {
    busyTimeoutMs,
    isBusy,
    lastingChanges: requestChanges,
    waits: lockWaits
  })

  /** A storage error as the domain's, and the episode noted; anything else as it is. */
  const asDomainError = (error: unknown): unknown => {
    const fault = storageFaultOf(error)
    if (fault === null) return error
    health.failed(fault, messageOf(fault))
    return errorOf(fault)
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
    nativeBinding: nativeBindingOption(options.nativeBinding).nativeBinding,
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
          throw fault === null ? error : errorOf(fault)
        }
        throw asDomainError(error)
      }
    },
    read,
    async whenWritable(onWait) {
      const deadline = Date.now() + busyTimeoutMs
      let pauseMs = 5
      let told = false
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
          if (lockWaits.ended() || Date.now() + pauseMs > deadline) throw asDomainError(error)
        }
        if (!told) onWait?.()
        told = true
        await lockWaits.pause(pauseMs)
        pauseMs = Math.min(pauseMs * 2, 100)
      }
    },
    stopWaitingForLock: () => lockWaits.end(),
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
      fileWatch?.stop()
      group.commitNow()
      if (checkpointerStart) clearTimeout(checkpointerStart)
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

/**
 * Store.read over `db`: a DEFERRED transaction (BEGIN takes no lock; the first read fixes the
 * snapshot, COMMIT lets it go), or, inside an open transaction, that transaction itself.
 */
function readerOf(db: Database, thrown: (error: unknown) => unknown): Store['read'] {
  const begin = db.prepare('BEGIN DEFERRED')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  return <T>(work: () => T): T => {
    if (db.inTransaction) return work()
    begin.run()
    try {
      const result = work()
      commit.run()
      return result
    } catch (error) {
      if (db.inTransaction) rollback.run()
      throw thrown(error)
    }
  }
}

/** StoreOptions.readOnly: the file as it is, read beside whatever else has it open. */
function openReadOnly(options: StoreOptions): Store {
  // fileMustExist: a missing path is an error, never a new empty database.
  const db = new BetterSqlite3(options.path, {
    readonly: true,
    fileMustExist: true,
    ...nativeBindingOption(options.nativeBinding)
  })
  const busyTimeoutMs = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS
  try {
    // A reader in WAL mode never waits for the write lock; this only covers another connection's
    // brief recovery or WAL restart. Blocking is fine here: no event loop answers anything meanwhile.
    db.pragma(`busy_timeout = ${busyTimeoutMs}`)
    // The first read of the file: a file that is no SQLite database throws SQLITE_NOTADB here.
    const version = schemaVersion(db)
    if (version !== latestSchemaVersion) throw new UnreadableDatabaseError(options.path, version, latestSchemaVersion)
  } catch (error) {
    db.close()
    throw error
  }
  const health = createStorageHealth(options.path, busyTimeoutMs)
  // SQLite's own error: its caller (export-state) words it; the domain's message speaks of writes.
  const read = readerOf(db, (error) => error)
  const readOnlyError = () => storageError('STORAGE_READ_ONLY', options.path, busyTimeoutMs)
  return {
    db,
    path: options.path,
    nativeBinding: nativeBindingOption(options.nativeBinding).nativeBinding,
    health,
    transaction: () => {
      throw readOnlyError()
    },
    read,
    whenWritable: () => Promise.reject(readOnlyError()),
    stopWaitingForLock: () => undefined,
    writeIfPossible: () => false,
    storageErrorOf(error) {
      const fault = storageFaultOf(error)
      return fault === null ? null : storageError(fault, options.path, busyTimeoutMs)
    },
    groupCommit: () => Promise.reject(readOnlyError()),
    onRollback: () => () => undefined,
    // No checkpoint: a reader writes nothing, not even the WAL into the database file.
    close: () => {
      if (db.open) db.close()
    }
  }
}
