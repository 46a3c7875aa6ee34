import { isDomainError } from '../errors/domain-error'
import type { StorageFaultCode } from '../store/storage-faults'
import type { Store } from '../store/store'
import type { LeftOutCounts, LostExchangesFile } from './lost-exchanges-file'
import type { RecordedExchange } from './recording-format'
import type { RecordingRepository } from './recording-repository'

/** What waits in memory at most while storage refuses writes; past it, exchanges are counted as lost. */
export interface RecordingQueueLimits {
  exchanges: number
  /** Characters of the exchanges' JSON text (about their bytes in memory). */
  chars: number
}

export const DEFAULT_QUEUE_LIMITS: RecordingQueueLimits = { exchanges: 10_000, chars: 64 * 1024 * 1024 }
/** After storage refused a write, the next attempt waits this long (as the request log's). */
export const RETRY_MS = 1000
/** Exchanges (and characters of their JSON) written per transaction and turn of the event loop when many wait. */
const WRITE_SLICE = { exchanges: 64, chars: 4 * 1024 * 1024 }

/** What the server logs of the writer (src/server/recordings/recording-observer.ts): ids and counts only. */
export type RecordingWriteNotice =
  /** Storage refused a write: exchanges now wait in memory (once per episode). */
  | { kind: 'waiting'; code: StorageFaultCode; exchanges: number }
  /** More waited than memory holds: from now on this episode's newest exchanges are counted as lost (once). */
  | { kind: 'over-limit'; recordingId: string; limits: RecordingQueueLimits }
  /** Storage took the writes again: what waited is written, in order. */
  | { kind: 'written'; exchanges: number; lost: number }
  /** Closing while another program holds the write lock: the close waits for it, up to the busy timeout. */
  | { kind: 'waiting-at-close'; exchanges: number }
  /** A write failed for another reason than storage (a defect, rows changed behind the emulator's back). */
  | { kind: 'error'; error: unknown; lost: number }

/** What became of the exchanges still waiting when the emulator stopped. */
export interface RecordingStopReport {
  /** Written at the last attempt. */
  written: number
  /** Counted as lost (by recording). */
  lost: Map<string, number>
  /** Refused for a secret's shape and not counted in the database yet (by recording). */
  refused: Map<string, number>
  /** Where the lost and refused counts went: the recordings themselves, the file beside the database, or nowhere. */
  savedIn: 'database' | 'file' | null
  /** Why the counts went nowhere: the last error's message. */
  reason?: string
}

interface Waiting {
  recordingId: string
  seq: number
  /** The exchange's JSON text, made once when it was observed. */
  json: string
}

/** Counts not written yet: the same as those the file beside the database carries. */
type Counts = LeftOutCounts

export interface RecordingWriter {
  /**
   * Writes the exchange, or keeps it in memory to write once storage takes writes again (in order,
   * after everything observed before it). False when memory is full: it is counted as lost.
   */
  add(recordingId: string, seq: number, json: string): boolean
  /** Counts an exchange refused for a secret's shape (written with the next write). */
  refuse(recordingId: string): void
  /** What a recording has waiting: exchanges in order and counts not written yet. */
  waitingFor(recordingId: string): { exchanges: RecordedExchange[]; refused: number; lost: number }
  /** The same, counted only (for the list of recordings). */
  countWaiting(recordingId: string): { exchanges: number; refused: number; lost: number }
  /** The highest seq waiting for a recording, 0 when none. */
  lastSeqWaiting(recordingId: string): number
  /** Whether storage refused the last write and exchanges wait for it (an episode under way). */
  refusedByStorage(): boolean
  /** Drops what waits for a recording that was deleted. */
  forget(recordingId: string): void
  onNotice(listener: (notice: RecordingWriteNotice) => void): () => void
  /** Last attempt to write what waits (waiting for the write lock up to the busy timeout); then counts the rest as lost. */
  close(): Promise<RecordingStopReport>
}

export interface RecordingWriterOptions {
  store: Store
  repository: RecordingRepository
  lostFile: LostExchangesFile | null
  limits?: RecordingQueueLimits | undefined
}

const EVERYTHING = { exchanges: Number.POSITIVE_INFINITY, chars: Number.POSITIVE_INFINITY }
const COUNTS_ONLY = { exchanges: 0, chars: 0 }

const storageFaultOfError = (error: unknown): StorageFaultCode | null =>
  isDomainError(error) && error.code.startsWith('STORAGE_') ? (error.code as StorageFaultCode) : null

/**
 * Writes recorded exchanges, and keeps them while storage refuses (a full disk, another program
 * holding the write lock, a read-only file), as the request log keeps its entries: in memory,
 * bounded, retried every RETRY_MS and as soon as another write succeeds, in the order observed.
 * What cannot be kept (over the bound, or still waiting when the emulator stops) is counted as
 * the recording's `lost`: in the database, or when even that is refused, in a file beside it that
 * the next start adds in (./lost-exchanges-file.ts).
 */
export function createRecordingWriter(options: RecordingWriterOptions): RecordingWriter {
  const { store, repository, lostFile } = options
  const limits = options.limits ?? DEFAULT_QUEUE_LIMITS
  let queue: Waiting[] = []
  let queuedChars = 0
  /** Counts not written yet, by recording. */
  const counts = new Map<string, Counts>()
  /** The lost counts of the file read at start are among `counts` until written. */
  let fileCountsWaiting = false
  let retryAt = 0
  let timer: ReturnType<typeof setTimeout> | null = null
  let nextTurn: ReturnType<typeof setImmediate> | null = null
  let closed = false
  /** The current episode of refused writes: what it kept and lost, and whether it warned of the bound. */
  let episode: { written: number; lost: number; warnedLimit: boolean } | null = null
  /** Exchanges written since the start (the exit report counts those of its last attempt). */
  let writtenInAll = 0
  const listeners = new Set<(notice: RecordingWriteNotice) => void>()

  const tell = (notice: RecordingWriteNotice) => {
    for (const listener of listeners) {
      try {
        listener(notice)
      } catch {
        // A broken reporter must not stop the writes.
      }
    }
  }
  const countsOf = (recordingId: string): Counts => {
    let found = counts.get(recordingId)
    if (!found) {
      found = { refused: 0, lost: 0 }
      counts.set(recordingId, found)
    }
    return found
  }
  const countLost = (recordingId: string, n: number) => {
    countsOf(recordingId).lost += n
    if (episode) episode.lost += n
  }
  const somethingWaits = () => queue.length > 0 || counts.size > 0

  const cancelScheduled = () => {
    if (timer) clearTimeout(timer)
    if (nextTurn) clearImmediate(nextTurn)
    timer = null
    nextTurn = null
  }
  /** The next attempt: on the next turn, or at retryAt while storage refuses. Unref'd: an idle process may exit. */
  const schedule = () => {
    if (closed || timer || nextTurn || !somethingWaits()) return
    const wait = retryAt - Date.now()
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = null
        drain()
      }, wait)
      timer.unref()
      return
    }
    nextTurn = setImmediate(() => {
      nextTurn = null
      drain()
    })
    nextTurn.unref()
  }

  /**
   * Writes the oldest waiting exchanges (at least one, within `max`) and every count, in one
   * transaction. Answers the storage fault that refused it, or null. Exchanges of a recording
   * deleted meanwhile are dropped.
   */
  function writeSlice(max: { exchanges: number; chars: number }): StorageFaultCode | null {
    let end = 0
    let chars = 0
    while (end < queue.length && end < max.exchanges) {
      chars += (queue[end] as Waiting).json.length
      if (end > 0 && chars > max.chars) break
      end += 1
    }
    const slice = queue.slice(0, end)
    const written = [...counts]
    try {
      store.transaction(
        () => {
          const present = new Map<string, boolean>()
          const there = (id: string) => {
            let known = present.get(id)
            if (known === undefined) present.set(id, (known = repository.exists(id)))
            return known
          }
          for (const item of slice)
            if (there(item.recordingId)) repository.appendExchange(item.recordingId, item.seq, item.json)
          for (const [id, added] of written) if (there(id)) repository.addCounts(id, added)
        },
        // Like the request log's batches: it neither starts nor ends the episode a request reports.
        { background: true }
      )
    } catch (error) {
      const fault = storageFaultOfError(error)
      if (fault !== null) return fault
      // Not storage: these exchanges will never be written. Counted, and the next ones go on.
      dropSlice(slice)
      for (const item of slice) countLost(item.recordingId, 1)
      retryAt = Date.now() + RETRY_MS
      tell({ kind: 'error', error, lost: slice.length })
      return null
    }
    dropSlice(slice)
    for (const [id] of written) counts.delete(id)
    if (fileCountsWaiting) {
      fileCountsWaiting = false
      try {
        lostFile?.remove()
      } catch {
        // Its counts are written: a file left behind would add them twice, so try again at the next write.
        fileCountsWaiting = true
      }
    }
    writtenInAll += slice.length
    if (episode) episode.written += slice.length
    return null
  }

  /** A file whose counts are written but which could not be removed then: removed now, or it would add them twice. */
  function removeWrittenFile(): void {
    if (!fileCountsWaiting || counts.size > 0) return
    try {
      lostFile?.remove()
      fileCountsWaiting = false
    } catch {
      // Still refused: the next start adds its counts again, which only the file system can prevent.
    }
  }

  function dropSlice(slice: Waiting[]): void {
    queue = queue.slice(slice.length)
    for (const item of slice) queuedChars -= item.json.length
  }

  /** One slice now; the rest on the next turns, so requests arriving meanwhile wait for one slice only. */
  function drain(): void {
    if (closed || !somethingWaits()) return
    if (Date.now() < retryAt) return schedule()
    const fault = writeSlice(WRITE_SLICE)
    if (fault !== null) {
      retryAt = Date.now() + RETRY_MS
      if (!episode) {
        episode = { written: 0, lost: 0, warnedLimit: false }
        tell({ kind: 'waiting', code: fault, exchanges: queue.length })
      }
      return schedule()
    }
    if (somethingWaits()) return schedule()
    retryAt = 0
    if (episode) {
      tell({ kind: 'written', exchanges: episode.written, lost: episode.lost })
      episode = null
    }
  }

  // Lost and refused counts the last run could not write into the database: added in with the first write.
  const fromFile = lostFile?.read() ?? new Map<string, Counts>()
  for (const [id, n] of fromFile) {
    countsOf(id).lost += n.lost
    countsOf(id).refused += n.refused
  }
  if (fromFile.size > 0) {
    fileCountsWaiting = true
    schedule()
  }
  // Storage takes writes again (a request's write succeeded): no need to wait for the retry timer.
  const unsubscribe = store.health.onChange((fault) => {
    if (fault !== null || !somethingWaits()) return
    retryAt = 0
    if (timer) clearTimeout(timer)
    timer = null
    schedule()
  })

  return {
    add(recordingId, seq, json) {
      if (closed) {
        countLost(recordingId, 1)
        return false
      }
      if (queue.length >= limits.exchanges || queuedChars + json.length > limits.chars) {
        countLost(recordingId, 1)
        if (episode && !episode.warnedLimit) {
          episode.warnedLimit = true
          tell({ kind: 'over-limit', recordingId, limits })
        }
        schedule()
        return false
      }
      queue.push({ recordingId, seq, json })
      queuedChars += json.length
      // Written at once while storage takes writes (and nothing older waits for a later turn).
      if (queue.length === 1 && !nextTurn && Date.now() >= retryAt) drain()
      else schedule()
      return true
    },
    refuse(recordingId) {
      countsOf(recordingId).refused += 1
      if (queue.length === 0 && !nextTurn && Date.now() >= retryAt) drain()
      else schedule()
    },
    waitingFor(recordingId) {
      const found = counts.get(recordingId)
      return {
        exchanges: queue
          .filter((item) => item.recordingId === recordingId)
          .map((item) => JSON.parse(item.json) as RecordedExchange),
        refused: found?.refused ?? 0,
        lost: found?.lost ?? 0
      }
    },
    countWaiting(recordingId) {
      const found = counts.get(recordingId)
      let exchanges = 0
      for (const item of queue) if (item.recordingId === recordingId) exchanges += 1
      return { exchanges, refused: found?.refused ?? 0, lost: found?.lost ?? 0 }
    },
    lastSeqWaiting(recordingId) {
      let last = 0
      for (const item of queue) if (item.recordingId === recordingId) last = Math.max(last, item.seq)
      return last
    },
    refusedByStorage: () => episode !== null,
    forget(recordingId) {
      const kept = queue.filter((item) => item.recordingId !== recordingId)
      for (const item of queue) if (item.recordingId === recordingId) queuedChars -= item.json.length
      queue = kept
      counts.delete(recordingId)
    },
    onNotice(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      const report: RecordingStopReport = { written: 0, lost: new Map(), refused: new Map(), savedIn: null }
      if (closed) return report
      closed = true
      cancelScheduled()
      unsubscribe()
      removeWrittenFile()
      if (!somethingWaits()) return report
      const before = writtenInAll
      if (writeSlice(EVERYTHING) === 'STORAGE_BUSY') {
        // Another program holds the write lock: wait for it as long as a request's write would
        // (said only when it does wait: a second signal may already have ended the waits).
        try {
          await store.whenWritable(() => tell({ kind: 'waiting-at-close', exchanges: queue.length }))
          writeSlice(EVERYTHING)
        } catch {
          // Still held after the busy timeout: what waits is lost, counted below.
        }
      }
      // Exchanges dropped for another reason than storage are counted as lost, not written.
      report.written = writtenInAll - before
      if (!somethingWaits()) return report
      for (const item of queue) countLost(item.recordingId, 1)
      queue = []
      queuedChars = 0
      for (const [id, { lost, refused }] of counts) {
        if (lost > 0) report.lost.set(id, lost)
        if (refused > 0) report.refused.set(id, refused)
      }
      // A count is a small write: it can pass where the exchanges could not (a full disk).
      if (writeSlice(COUNTS_ONLY) === null && counts.size === 0) {
        if (report.lost.size > 0 || report.refused.size > 0) report.savedIn = 'database'
        return report
      }
      // Refused counts go with them (a refused exchange was never going to be written; its count was).
      try {
        lostFile?.write(counts)
        if (lostFile) report.savedIn = 'file'
        else report.reason = 'the database is in memory'
      } catch (error) {
        report.reason = error instanceof Error ? error.message : String(error)
      }
      return report
    }
  }
}
