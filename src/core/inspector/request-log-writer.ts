import type { Database } from 'better-sqlite3'

import { REQUEST_PAGE_MAX } from '../../shared/contract/inspector'
import { watchDatabaseFile } from '../store/database-file-watch'
import type { DatabaseFileWatch } from '../store/database-file-watch'
import { storageFaultOf } from '../store/storage-faults'
import { fallbackEntry, prepareEntry } from './redact-exchange'
import type { PreparedEntry } from './redact-exchange'
import type { LogAnswers, LogCall, PostedCapture, WrittenEntry } from './request-log-protocol'
import { createRequestLogRepository } from './request-log-repository'
import type { RequestLogRepository } from './request-log-repository'
import type { CaptureRedaction, RequestSummary } from './types'

/** Entries redacted and written per transaction: a long backlog commits (and is acknowledged) as it goes. */
export const WRITE_SLICE = 500
/** After storage refused a batch (disk full, read-only, locked), the next attempt waits this long. */
export const STORAGE_RETRY_MS = 1000
export const DEFAULT_PAGE_SIZE = 50

export interface RequestLogWriterOptions {
  /** Opens the log's database; a storage fault here is retried like a refused batch. */
  open(): Database
  /**
   * The file `open` opens (none in memory): watched while open, so that a log deleted, moved or
   * replaced while the emulator runs is let go of and started anew at this path.
   */
  file?: string | undefined
  /** Rows kept; the oldest beyond it are deleted after each batch. */
  capacity: number
  /** Captures up to this number are settled: written, or dropped on purpose (never lost silently). */
  settled(seq: number): void
  /** Entries just written, while someone streams them (see `stream`). */
  written(entries: WrittenEntry[]): void
  /** A batch dropped for another reason than storage: a defect worth an error line. */
  failed(message: string): void
  storageRetryMs?: number
}

export interface RequestLogWriter {
  redaction(id: number, redaction: CaptureRedaction): void
  /** Queues captures numbered up to `lastSeq` and writes them in the next turn (several posts coalesce). */
  receive(captures: PostedCapture[], lastSeq: number): void
  /** Answers a call; whatever was received before it is written first. */
  call<C extends LogCall>(call: C): LogAnswers[C['op']]
  /** From now on `written` hears every entry written (true), or none (false). */
  stream(on: boolean): void
}

/**
 * The request log's writing half, run on its own thread: a queue of raw captures, redacted and
 * written a slice per transaction, the ring trimmed to `capacity`, and the reads the server asks
 * for. While storage refuses writes the queue is kept (at most the ring's worth) and tried again.
 */
export function createRequestLogWriter(options: RequestLogWriterOptions): RequestLogWriter {
  const capacity = Math.max(1, Math.floor(options.capacity))
  const retryMs = options.storageRetryMs ?? STORAGE_RETRY_MS
  const redactions = new Map<number, CaptureRedaction>()
  let db: Database | null = null
  let rows: RequestLogRepository | null = null
  /** One transaction wrapper for every batch: db.transaction() builds a new one each call. */
  let inTransaction: ((work: () => void) => void) | null = null
  let queue: PostedCapture[] = []
  /** Number of the newest capture received. */
  let received = 0
  /** While storage refuses writes: no attempt before this time (ms since the epoch). */
  let retryAt = 0
  let retryTimer: ReturnType<typeof setTimeout> | null = null
  let writeScheduled = false
  /** A scenario import's replacement, written but not committed: nothing else writes meanwhile. */
  let replacing = false
  /** Whether someone listens to what is written. */
  let streaming = false
  let fileWatch: DatabaseFileWatch | null = null
  /** The file at the path is no longer the one open; let go of at the first moment no import holds it. */
  let fileGone = false
  /** The newest id of a file let go of: the next file's ids go on after it, so none is used twice. */
  let idsAfter = 0

  const settle = () => options.settled(received - queue.length)

  /** The database, opened on first use; null while storage refuses to open it (retried later). */
  function repository(): RequestLogRepository | null {
    letGoOfGoneFile()
    if (rows) return rows
    try {
      const opened = options.open()
      const opening = createRequestLogRepository(opened)
      try {
        if (idsAfter > 0) opening.continueIdsAfter(idsAfter)
      } catch (error) {
        opened.close()
        throw error
      }
      idsAfter = 0
      rows = opening
      inTransaction = opened.transaction((work: () => void) => work()).immediate
      db = opened
      const { file } = options
      if (file !== undefined)
        fileWatch = watchDatabaseFile(file, () => {
          fileGone = true
          letGoOfGoneFile()
        })
      return rows
    } catch (error) {
      if (storageFaultOf(error) === null) throw error
      return null
    }
  }

  /**
   * Closes a file that is no longer at the log's path (`rm <db>.requests` while the emulator runs),
   * and says so: the next write or read opens a new log there (or, its folder gone too, is refused
   * as storage, and tried again). Writing on into a deleted file would
   * record into nothing anyone can read, and lose it all when the process ends. Its `-wal` stays
   * behind (SQLite writes nothing more of a file unlinked); the new, empty file does not take its
   * frames: SQLite deletes a WAL it finds beside a database of no pages.
   */
  function letGoOfGoneFile(): void {
    if (!fileGone || replacing || !db) return
    fileGone = false
    fileWatch?.stop()
    fileWatch = null
    const gone = db
    try {
      // A deleted file is still read through its open connection.
      idsAfter = Math.max(idsAfter, rows?.newestId() ?? 0)
    } catch {
      // Unreadable: the next file's own ids (the live stream may then miss a few).
    }
    db = null
    rows = null
    inTransaction = null
    try {
      gone.close()
    } catch {
      // Nothing of a file that is gone is worth keeping.
    }
    options.failed(
      `the request log file ${options.file ?? ''} was deleted or replaced while the emulator ran: the next write starts a new log there (requests recorded in the second before are not in it)`
    )
  }

  function scheduleWrite(): void {
    if (writeScheduled) return
    writeScheduled = true
    setImmediate(() => {
      writeScheduled = false
      writeQueued()
    })
  }

  function retryLater(): void {
    retryAt = Date.now() + retryMs
    if (retryTimer) return
    retryTimer = setTimeout(() => {
      retryTimer = null
      writeQueued()
    }, retryMs)
  }

  /** Entries the ring would drop at once are not worth redacting or writing. */
  function dropUnshowable(): void {
    if (queue.length > capacity) queue = queue.slice(-capacity)
  }

  /** Writes the queue a slice per transaction, unless storage refuses (then it waits) or an import holds the file. */
  function writeQueued(force = false): void {
    if (replacing || (!force && Date.now() < retryAt)) return
    dropUnshowable()
    settle()
    while (queue.length > 0) {
      const batch = queue.slice(0, WRITE_SLICE)
      const outcome = write(batch)
      if (outcome === 'refused') {
        retryLater()
        return
      }
      queue = queue.slice(batch.length)
      settle()
    }
    retryAt = 0
  }

  function prepared(capture: PostedCapture): PreparedEntry {
    const redaction = redactions.get(capture.redactionId)
    // The server posts each redaction before the captures that name it: a defect otherwise.
    if (!redaction) throw new Error(`request log: capture names redaction ${capture.redactionId}, never posted`)
    // The posted object is this thread's own copy: given its rules in place, not copied again.
    const full = Object.assign(capture, { redaction })
    // Client input decides what a capture holds: one that cannot be prepared whole is still
    // recorded, with a note, and is no defect worth an error-level line.
    try {
      return prepareEntry(full)
    } catch {
      return fallbackEntry(full)
    }
  }

  function write(batch: readonly PostedCapture[]): 'written' | 'refused' | 'dropped' {
    const repo = repository()
    if (!repo || !inTransaction) return 'refused'
    const written: WrittenEntry[] = []
    try {
      const entries = batch.map((capture) => ({ entry: prepared(capture), at: new Date(capture.atMs).toISOString() }))
      inTransaction(() => {
        let newest = 0
        for (const { entry, at } of entries) {
          newest = repo.insert(at, entry)
          // Only a live stream needs the entry as a summary again.
          if (streaming)
            written.push({
              summary: summaryOf(newest, at, entry),
              exchangeText: `${entry.requestJson}\n${entry.responseJson}`
            })
        }
        if (newest > 0) repo.deleteUpTo(newest - capacity)
      })
    } catch (error) {
      written.length = 0
      if (storageFaultOf(error) !== null) return 'refused'
      options.failed(error instanceof Error ? error.message : String(error))
      return 'dropped'
    }
    if (streaming && written.length > 0) options.written(written)
    return 'written'
  }

  /** The repository for a read; a log that cannot be opened reads as storage refusing it. */
  function reading(): RequestLogRepository {
    const repo = repository()
    if (!repo) throw Object.assign(new Error('the request log cannot be opened'), { code: 'SQLITE_CANTOPEN' })
    return repo
  }

  const answer = {
    flush: () => undefined,
    list(call: Extract<LogCall, { op: 'list' }>) {
      const { query } = call
      const limit = clampLimit(query.limit)
      // One more than the page: whether there is a next page.
      const found = reading().newestFirst(query, query.before, limit + 1)
      const entries = found.slice(0, limit)
      return { entries, nextBefore: found.length > limit ? (entries[entries.length - 1]?.id ?? null) : null }
    },
    get: (call: Extract<LogCall, { op: 'get' }>) => reading().byId(call.id),
    after: (call: Extract<LogCall, { op: 'after' }>) => reading().newerThan(call.id, clampLimit(call.limit)),
    written: (call: Extract<LogCall, { op: 'written' }>) => reading().exchangesNewerThan(call.after, call.limit),
    newestId: () => reading().newestId(),
    count: () => reading().count(),
    clear() {
      queue = []
      settle()
      return reading().deleteAll()
    },
    rows: (call: Extract<LogCall, { op: 'rows' }>) => reading().rows(call.columns),
    replaceBegin(call: Extract<LogCall, { op: 'replaceBegin' }>) {
      const repo = reading()
      // What was queued belongs to the state being replaced: written first, then replaced with it.
      repo.begin()
      try {
        repo.deleteAll()
        const insert = repo.inserterOf(call.columns)
        for (const [index, values] of call.rows.entries()) {
          try {
            insert(values)
          } catch (error) {
            if (storageFaultOf(error) !== null) throw error
            repo.end(false)
            return { index, message: (error as Error).message ?? '' }
          }
        }
      } catch (error) {
        repo.end(false)
        throw error
      }
      replacing = true
      return null
    },
    replaceEnd(call: Extract<LogCall, { op: 'replaceEnd' }>) {
      if (!replacing) return
      // Read while still replacing: a file gone meanwhile is let go of after the import ends, not within it.
      const repo = reading()
      replacing = false
      repo.end(call.commit)
      scheduleWrite()
    },
    close() {
      // The last chance to write them: tried now, whatever the wait between attempts.
      writeQueued(true)
      const unwritten = queue.length
      queue = []
      if (retryTimer) clearTimeout(retryTimer)
      retryTimer = null
      fileWatch?.stop()
      fileWatch = null
      if (rows && db?.open) {
        rows.end(false)
        try {
          rows.foldWal()
        } catch {
          // Another connection reads it: SQLite checkpoints when the last one closes.
        }
        db.close()
      }
      return unwritten
    }
  } satisfies { [K in LogCall['op']]: (call: Extract<LogCall, { op: K }>) => LogAnswers[K] }

  return {
    redaction(id, redaction) {
      redactions.set(id, redaction)
    },
    receive(captures, lastSeq) {
      queue.push(...captures)
      received = lastSeq
      // The ring keeps `capacity` rows: older queued captures could never be shown.
      if (queue.length > capacity * 2) {
        dropUnshowable()
        settle()
      }
      scheduleWrite()
    },
    call<C extends LogCall>(call: C): LogAnswers[C['op']] {
      if (call.op !== 'clear' && call.op !== 'close') writeQueued()
      const run = answer[call.op] as (call: C) => LogAnswers[C['op']]
      return run(call)
    },
    stream(on) {
      streaming = on
    }
  }
}

function summaryOf(id: number, at: string, entry: PreparedEntry): RequestSummary {
  return {
    id,
    at,
    surface: entry.surface,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    durationMs: entry.durationMs,
    authKind: entry.authKind,
    productId: entry.productId,
    source: entry.source,
    errorCode: entry.errorCode,
    fault: entry.fault,
    answeredBy: entry.answeredBy,
    upstreamStatus: entry.upstreamStatus,
    upstreamMs: entry.upstreamMs
  }
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE
  return Math.min(REQUEST_PAGE_MAX, Math.max(1, Math.floor(limit)))
}
