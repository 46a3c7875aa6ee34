import type { Database } from 'better-sqlite3'

import { groupCompany } from '../load/group-company'
import type { LockWaits } from './lock-waits'

/**
 * Group commit: the reads and writes of every request answered in one turn of the event loop share
 * one transaction, committed once when the turn ends, instead of a read transaction per statement
 * and a commit per request. A commit's cost is
 * mostly fixed (the WAL append of every page it dirtied, the lock); under load, many requests of
 * one turn write the same few pages (a credential's row, an audit leaf, a license's activations),
 * so one commit writes each page once.
 *
 * `run(work)` runs `work` at once, in a savepoint of the turn's transaction (opened by the first
 * grouped write of the turn), and resolves with its result only after that transaction commits:
 * a request answers after its writes are in the database, as with a transaction of its own. A
 * `work` that throws rolls back its own writes and rejects; the others stay. A commit that fails
 * rejects every write of the group, unless no work in it wrote more than a stamp (lastingChanges):
 * then the answers stand and only the stamps are lost, as a stamp's own failure would drop them.
 *
 * While the group is open, every other statement on this connection runs inside it: reads see the
 * group's writes (they are this process's own), and a statement outside any transaction joins the
 * group. A transaction of its own (`Store.transaction`) commits the group first; one begun inside a
 * grouped `work` is a savepoint of the group, and `run` inside a transaction of its own is part of it.
 *
 * The group begins DEFERRED: a turn of reads never takes the write lock, so it reads the last
 * commit while another process holds that lock (WAL). Its first write takes the lock. A work
 * refused because another process holds it (SQLITE_BUSY, after the connection's short busy
 * timeout) is rolled back and run again in a later turn's group, after a pause that lets the
 * event loop answer everything else, until `busyTimeoutMs` has passed; then it rejects with that
 * error. A work must therefore be safe to run again: its only effects are its writes.
 *
 * Each commit tells src/core/load/group-company.ts how many works it answered: a group of one is a
 * lone call, which signs its token on the main thread instead of waiting for the thread pool.
 *
 * What a lone call pays for its group is kept small (one call at a time is how a plugin's test
 * suite calls): BEGIN, COMMIT and ROLLBACK are prepared once, and the group's first work runs in
 * the transaction itself, with no savepoint: when it throws, the group holds nothing else, so the
 * whole transaction is rolled back instead (measured: the savepoint and the statements parsed on
 * every call were 29 us of a lone validate's CPU, against 24 us for its one read).
 */
export interface GroupCommit {
  run<T>(work: () => T): Promise<T>
  /** Commits the open group now (before a transaction of its own, or on close); nothing when none is open. */
  commitNow(): void
}

interface Waiting {
  resolve: () => void
  reject: (error: unknown) => void
  /** Whether the work wrote what must commit for its answer to stand (more than a stamp). */
  lasting: boolean
}

export interface GroupCommitOptions {
  /** How long a work refused by another process's write lock keeps being retried, in ms. */
  busyTimeoutMs: number
  /** Whether an error is another process holding the lock (worth running the work again). */
  isBusy(error: unknown): boolean
  /**
   * Rows changed so far on this connection by writes that must commit, leaving out those a read
   * can do without (Store.writeIfPossible's stamps). When a commit fails (a full disk shows at the
   * commit in WAL mode) and no work of the group changed any, the answers stand without the stamps.
   */
  lastingChanges(): number
  /** The pauses between retries, which the store can end at once (Store.stopWaitingForLock). */
  waits: LockWaits
}

/** Pauses between retries of a work refused by the lock: short first, then at most RETRY_PAUSE_MAX_MS. */
const RETRY_PAUSE_FIRST_MS = 5
const RETRY_PAUSE_MAX_MS = 100

export function createGroupCommit(db: Database, onRollback: () => void, options: GroupCommitOptions): GroupCommit {
  // Inside an open transaction better-sqlite3 runs this as a savepoint: its own writes undone on a throw.
  const savepoint = db.transaction((work: () => unknown) => work())
  const begin = db.prepare('BEGIN')
  const commit = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  let waiting: Waiting[] | null = null
  /** Grouped works running now: the group cannot commit in the middle of one. */
  let depth = 0

  function inSavepoint<T>(work: () => T): T {
    depth++
    try {
      return savepoint(work) as T
    } catch (error) {
      onRollback()
      throw error
    } finally {
      depth--
    }
  }

  /** The group's first work, in the transaction itself: on a throw, the whole group (only its writes) is undone. */
  function asFirst<T>(work: () => T): T {
    depth++
    try {
      return work()
    } catch (error) {
      waiting = null
      if (db.inTransaction) rollback.run()
      onRollback()
      throw error
    } finally {
      depth--
    }
  }

  function commitNow(): void {
    const group = waiting
    if (group === null || depth > 0) return
    waiting = null
    try {
      commit.run()
    } catch (error) {
      if (db.inTransaction) rollback.run()
      onRollback()
      // Only stamps were lost: every answer was read from committed data and stands.
      if (!group.some((write) => write.lasting)) {
        groupCompany.committed(group.length)
        for (const write of group) write.resolve()
        return
      }
      for (const write of group) write.reject(error)
      return
    }
    groupCompany.committed(group.length)
    for (const write of group) write.resolve()
  }

  function runOnce<T>(work: () => T): Promise<T> {
    // A throw in here (the work's own) rejects the promise.
    return new Promise<T>((resolve, reject) => {
      if (waiting === null && db.inTransaction) {
        // Inside a transaction of its own: part of it, committed (or rolled back) when it is.
        resolve(inSavepoint(work))
        return
      }
      if (waiting === null) {
        begin.run()
        waiting = []
        // After the turn's I/O callbacks: every request read in this turn has written by then.
        setImmediate(commitNow)
        const group = waiting
        const before = options.lastingChanges()
        const result = asFirst(work)
        group.push({ resolve: () => resolve(result), reject, lasting: options.lastingChanges() !== before })
        return
      }
      const group = waiting
      const before = options.lastingChanges()
      const result = inSavepoint(work)
      group.push({ resolve: () => resolve(result), reject, lasting: options.lastingChanges() !== before })
    })
  }

  return {
    async run<T>(work: () => T): Promise<T> {
      const deadline = Date.now() + options.busyTimeoutMs
      let pauseMs = RETRY_PAUSE_FIRST_MS
      for (;;) {
        try {
          return await runOnce(work)
        } catch (error) {
          if (!options.isBusy(error) || options.waits.ended() || Date.now() + pauseMs > deadline) throw error
        }
        // By then this turn's group has committed: the next attempt reads a fresh snapshot.
        await options.waits.pause(pauseMs)
        pauseMs = Math.min(pauseMs * 2, RETRY_PAUSE_MAX_MS)
      }
    },
    commitNow
  }
}
