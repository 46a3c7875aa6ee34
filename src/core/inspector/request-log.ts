import { REQUEST_PAGE_MAX } from '../../shared/contract/inspector'
import type { Clock } from '../clock/clock'
import { isDomainError } from '../errors/domain-error'
import type { Store } from '../store/store'
import { fallbackEntry, prepareEntry } from './redact-exchange'
import type { PreparedEntry } from './redact-exchange'
import { createRequestLogRepository } from './request-log-repository'
import type { RequestCapture, RequestEntry, RequestFilter, RequestPage, RequestSummary } from './types'

/** How long a finished request waits in memory before its batch is written. */
export const FLUSH_DELAY_MS = 75
/**
 * A batch this large is written at once instead of waiting for the timer; and the queue is never
 * let grow past it: a turn that finds more writes the excess too, so the log keeps up with any load.
 */
export const MAX_BATCH = 500
/** After storage refused a batch (disk full, read-only, locked), the next attempt waits this long. */
export const STORAGE_RETRY_MS = 1000
/**
 * Entries redacted and written per turn of the event loop. A long queue is written a slice at a
 * time, so requests arriving meanwhile wait for one slice (about 3 ms under load), not the whole batch.
 */
export const WRITE_SLICE = 64
export const DEFAULT_PAGE_SIZE = 50

export interface RequestLogOptions {
  /** Rows kept; the oldest beyond it are deleted after each batch. */
  capacity: number
  flushDelayMs?: number | undefined
}

export interface RequestListQuery extends RequestFilter {
  limit?: number | undefined
  /** Only entries with a smaller id (the `nextBefore` of the previous page). */
  before?: number | undefined
}

/**
 * The request inspector's store: a bounded ring of redacted exchanges in `request_log`.
 *
 * `record` runs on the request path, so it only queues the raw capture. Redaction, product
 * lookup and the SQL happen later, from a short unref'd timer, in slices of WRITE_SLICE entries
 * (one transaction each) with the event loop free between them; or all at once in `flush()`.
 * Reads flush first, so a QA script sees every request that has finished.
 */
export interface RequestLog {
  /** Queues a finished exchange. Cheap: no redaction, no SQL. */
  record(capture: RequestCapture): void
  /** Newest first, filtered, a page at a time. */
  list(query?: RequestListQuery): RequestPage
  /** One entry with its redacted request and response; null when unknown or dropped from the ring. */
  get(id: number): RequestEntry | null
  /** Entries newer than `id`, oldest first (a live stream catching up after a reconnect). */
  after(id: number, limit: number): RequestSummary[]
  /** Empties the log, queued entries included; answers how many rows went. */
  clear(): number
  /**
   * Called with each entry once it is written, and its redacted exchange as stored (for the
   * text search of a live stream). Returns the unsubscribe function.
   */
  subscribe(listener: (entry: RequestSummary, exchangeText: string) => void): () => void
  /** Live subscriptions (open event streams). */
  subscribers(): number
  /** Where a failed batch is reported (the batch is dropped; requests are never failed by it). */
  onWriteError(listener: (error: unknown) => void): () => void
  /** Captures waiting for the next batch. */
  pending(): number
  /** Writes what is queued; called on close. */
  flush(): void
  /**
   * Writes what is queued, once more even while storage refuses writes, and stops recording.
   * Answers how many queued requests could still not be written (they are not in the log).
   */
  close(): number
}

interface Queued {
  capture: RequestCapture
  /** Arrival time on the system clock, in ms (what the plugin's own log says, whatever the emulator clock). */
  atMs: number
}

export function createRequestLog(store: Store, clock: Clock, options: RequestLogOptions): RequestLog {
  const capacity = Math.max(1, Math.floor(options.capacity))
  const flushDelayMs = options.flushDelayMs ?? FLUSH_DELAY_MS
  const rows = createRequestLogRepository(store)

  let queue: Queued[] = []
  // The next write: a short timer while the queue is small, the next turn of the loop once it is not.
  let timer: ReturnType<typeof setTimeout> | null = null
  let nextTurn: ReturnType<typeof setImmediate> | null = null
  let closed = false
  /** While storage refuses writes: no attempt before this time (ms since the epoch). */
  let retryAt = 0
  const listeners = new Set<(entry: RequestSummary, exchangeText: string) => void>()
  const errorListeners = new Set<(error: unknown) => void>()

  const reportError = (error: unknown) => {
    for (const listener of errorListeners) {
      try {
        listener(error)
      } catch {
        // A broken reporter must not take the batch writer down with it.
      }
    }
  }

  const cancelScheduled = () => {
    if (timer) clearTimeout(timer)
    if (nextTurn) clearImmediate(nextTurn)
    timer = null
    nextTurn = null
  }

  /**
   * Schedules the next slice: after `flushDelayMs`, or on the next turn of the event loop. A write
   * already due on the next turn is never pushed back: re-arming a 0 ms timer on every record kept
   * it from firing under steady load, and the queue outgrew the ring (entries lost, found by the bench).
   */
  const schedule = (when: 'soon' | 'next-turn') => {
    if (nextTurn) return
    if (when === 'soon') {
      if (timer) return
      timer = setTimeout(() => {
        timer = null
        writeSlice()
      }, flushDelayMs)
      // An idle emulator (or a test run) must be able to exit with entries still queued.
      timer.unref()
      return
    }
    if (timer) clearTimeout(timer)
    timer = null
    nextTurn = setImmediate(() => {
      nextTurn = null
      writeSlice()
    })
    nextTurn.unref()
  }

  /**
   * Writes the oldest WRITE_SLICE queued entries (more if the queue is past MAX_BATCH: losing
   * entries is worse than a longer turn), and schedules the next slice if more wait.
   */
  function writeSlice(): void {
    if (closed) return
    if (Date.now() < retryAt) {
      if (timer) clearTimeout(timer)
      timer = setTimeout(() => {
        timer = null
        writeSlice()
      }, retryAt - Date.now())
      timer.unref()
      return
    }
    dropUnshowable()
    write(queue.splice(0, Math.max(WRITE_SLICE, queue.length - MAX_BATCH)))
    if (queue.length > 0) schedule('next-turn')
  }

  function flush(): void {
    if (queue.length === 0 || closed || Date.now() < retryAt) return
    cancelScheduled()
    dropUnshowable()
    const batch = queue
    queue = []
    write(batch)
  }

  /** Entries the ring would drop at once are not worth redacting or writing. */
  function dropUnshowable(): void {
    if (queue.length > capacity) queue = queue.slice(-capacity)
  }

  function write(batch: Queued[]): void {
    if (batch.length === 0) return
    const prepared: { entry: PreparedEntry; atMs: number }[] = []
    for (const item of batch) {
      // Client input decides what a capture holds: one that cannot be prepared whole is still
      // recorded, with a note, and is no defect worth an error-level line.
      let entry: PreparedEntry
      try {
        entry = prepareEntry(item.capture)
      } catch {
        entry = fallbackEntry(item.capture)
      }
      prepared.push({ entry, atMs: item.atMs })
    }
    const written: { summary: RequestSummary; exchangeText: string }[] = []
    try {
      store.transaction(
        () => {
          const products = new Map<string, string | null>()
          for (const { entry, atMs } of prepared) {
            const summary: Omit<RequestSummary, 'id'> = {
              at: new Date(atMs).toISOString(),
              surface: entry.surface,
              method: entry.method,
              path: entry.path,
              status: entry.status,
              durationMs: entry.durationMs,
              authKind: entry.authKind,
              productId: entry.productId ?? productOfAppId(products, entry.appId),
              source: entry.source,
              errorCode: entry.errorCode,
              fault: entry.fault,
              answeredBy: entry.answeredBy,
              upstreamStatus: entry.upstreamStatus,
              upstreamMs: entry.upstreamMs
            }
            written.push({
              summary: { id: rows.insert(summary, entry.requestJson, entry.responseJson), ...summary },
              exchangeText: `${entry.requestJson}\n${entry.responseJson}`
            })
          }
          rows.deleteUpTo((written[written.length - 1] as { summary: RequestSummary }).summary.id - capacity)
        },
        { background: true }
      )
    } catch (error) {
      if (isDomainError(error) && error.code.startsWith('STORAGE_')) {
        // Storage refuses writes for now (the store reports the episode once): keep the batch
        // and try again later, so the inspector resumes on its own once the disk allows.
        queue = batch.concat(queue)
        retryAt = Date.now() + STORAGE_RETRY_MS
        schedule('soon')
        return
      }
      reportError(error)
      return
    }
    retryAt = 0
    for (const { summary, exchangeText } of written) {
      for (const listener of listeners) {
        try {
          listener(summary, exchangeText)
        } catch (error) {
          reportError(error)
        }
      }
    }
  }

  function productOfAppId(cache: Map<string, string | null>, appId: string | null): string | null {
    if (appId === null) return null
    if (!cache.has(appId)) cache.set(appId, rows.productIdOfAppId(appId))
    return cache.get(appId) ?? null
  }

  return {
    record(capture) {
      if (closed) return
      queue.push({ capture, atMs: clock.now().getTime() - clock.offsetMs() - capture.durationMs })
      // The ring keeps `capacity` rows: older queued captures could never be shown.
      if (queue.length > capacity * 2) queue = queue.slice(-capacity)
      schedule(queue.length >= MAX_BATCH ? 'next-turn' : 'soon')
    },

    list(query = {}) {
      flush()
      const limit = clampLimit(query.limit)
      // One more than the page: whether there is a next page.
      const found = rows.newestFirst(query, query.before, limit + 1)
      const entries = found.slice(0, limit)
      return { entries, nextBefore: found.length > limit ? (entries[entries.length - 1]?.id ?? null) : null }
    },

    get(id) {
      flush()
      return rows.byId(id)
    },

    after(id, limit) {
      flush()
      return rows.newerThan(id, clampLimit(limit))
    },

    clear() {
      queue = []
      return rows.deleteAll()
    },

    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },

    subscribers: () => listeners.size,

    onWriteError(listener) {
      errorListeners.add(listener)
      return () => {
        errorListeners.delete(listener)
      }
    },

    pending: () => queue.length,

    flush,

    close() {
      if (closed) return 0
      // The last chance to write them: tried now, whatever the wait between attempts.
      retryAt = 0
      flush()
      closed = true
      cancelScheduled()
      const unwritten = queue.length
      queue = []
      listeners.clear()
      errorListeners.clear()
      return unwritten
    }
  }
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE
  return Math.min(REQUEST_PAGE_MAX, Math.max(1, Math.floor(limit)))
}
