/**
 * What the request log's two halves say to each other: the server's thread (./request-log.ts)
 * posts captures and asks questions; the log's worker thread (./request-log-worker.ts) redacts,
 * writes and answers. Every message is plain data (structured clone).
 */
import type { MessagePort } from 'node:worker_threads'

import type {
  CaptureRedaction,
  RequestCapture,
  RequestEntry,
  RequestFilter,
  RequestPage,
  RequestSummary
} from './types'

/** A capture as posted: its redaction rules by number (sent once each), its arrival time on the system clock. */
export interface PostedCapture extends Omit<RequestCapture, 'redaction'> {
  /** Left out (set to undefined in place, which keeps the object's shape): see redactionId. */
  redaction?: undefined
  redactionId: number
  /** Arrival on the system clock, in ms (what the plugin's own log says, whatever the emulator clock). */
  atMs: number
}

export interface ListQuery extends RequestFilter {
  limit?: number | undefined
  /** Only entries with a smaller id (the `nextBefore` of the previous page). */
  before?: number | undefined
}

/** The questions the server's thread waits for (synchronously): each answers once what was posted before it is written. */
export type LogCall =
  | { op: 'flush' }
  | { op: 'list'; query: ListQuery }
  | { op: 'get'; id: number }
  | { op: 'after'; id: number; limit: number }
  /** Entries after `id` with their stored exchange, oldest first (a new subscription catching up). */
  | { op: 'written'; after: number; limit: number }
  | { op: 'newestId' }
  | { op: 'count' }
  | { op: 'clear' }
  /** Every row, as stored, in id order: the named columns only (a scenario export). */
  | { op: 'rows'; columns: readonly string[] }
  /** Replaces every row, in a transaction left open until `replaceEnd` (a scenario import's other half). */
  | { op: 'replaceBegin'; columns: readonly string[]; rows: readonly (readonly unknown[])[] }
  | { op: 'replaceEnd'; commit: boolean }
  /** Writes what is queued, one last time whatever storage said before, and closes the file. */
  | { op: 'close' }

export interface LogAnswers {
  flush: void
  list: RequestPage
  get: RequestEntry | null
  after: RequestSummary[]
  written: WrittenEntry[]
  newestId: number
  count: { requests: number; uiRequests: number }
  clear: number
  rows: Record<string, unknown>[]
  /** The row refused and why (its index in `rows`), or null when every row was taken. */
  replaceBegin: { index: number; message: string } | null
  replaceEnd: void
  /** Queued requests that could still not be written. */
  close: number
}

export type ToWorker =
  | { kind: 'redaction'; id: number; redaction: CaptureRedaction }
  /** Captures numbered up to `lastSeq` (the first is lastSeq - captures.length + 1). */
  | { kind: 'record'; captures: PostedCapture[]; lastSeq: number }
  | { kind: 'call'; id: number; call: LogCall }
  /** Post every entry written from now on (true), or stop (false). */
  | { kind: 'stream'; on: boolean }

/** An entry once written, with its redacted exchange as stored (a live stream's text search reads it). */
export interface WrittenEntry {
  summary: RequestSummary
  exchangeText: string
}

export type FromWorker =
  | { kind: 'written'; entries: WrittenEntry[] }
  /** A batch that could not be written for another reason than storage (it is dropped). */
  | { kind: 'failed'; message: string }

/** On the reply port, read synchronously by the waiting thread. */
export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string; code?: string | undefined; details?: unknown } }

/** What the worker is started with. */
export interface LogWorkerData {
  /** The log's database file, or ':memory:'. */
  path: string
  nativeBinding: string | undefined
  /** Rows kept; the oldest beyond it are deleted after each batch. */
  capacity: number
  /**
   * Shared with the server's thread. Int32 [REPLIES]: replies posted so far (the waiting thread
   * sleeps on it); Int32 [DEAD]: 1 once the worker died of a defect. BigInt64 at SETTLED_OFFSET:
   * the number of the last capture settled (written, or dropped on purpose).
   */
  signal: SharedArrayBuffer
  /** Where replies to calls go (transferred): the waiting thread reads it synchronously. */
  replies: MessagePort
}

export const REPLIES = 0
export const DEAD = 1
export const SETTLED_OFFSET = 8
export const SIGNAL_BYTES = 16

/**
 * The worker thread's name. Node 24 gives the OS thread the Worker's `name`; on Node 20 and 22
 * the worker names itself (request-log-worker.ts). `top -H`, `ps -T` and the bench's CPU by thread show it.
 */
export const REQUEST_LOG_THREAD_NAME = 'request-log'
