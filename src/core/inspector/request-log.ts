import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import type { MessagePort } from 'node:worker_threads'

import type { Clock } from '../clock/clock'
import { cutPastRedactionDepth } from '../redaction/redact'
import { storageError, storageFaultOf } from '../store/storage-faults'
import { heldCapture } from './redact-exchange'
import { DEAD, REPLIES, REQUEST_LOG_THREAD_NAME, SETTLED_OFFSET, SIGNAL_BYTES } from './request-log-protocol'
import type {
  FromWorker,
  ListQuery,
  LogAnswers,
  LogCall,
  LogWorkerData,
  PostedCapture,
  Reply,
  ToWorker
} from './request-log-protocol'
import type { CaptureRedaction, RequestCapture, RequestEntry, RequestPage, RequestSummary } from './types'

/** How long a finished request waits in this thread before its batch is posted to the log's worker. */
export const FLUSH_DELAY_MS = 75
/** A batch this large is posted at once instead of waiting for the timer. */
export const POST_BATCH = 64
/** How long a read waits for the worker before it fails (it writes what is queued first). */
export const CALL_TIMEOUT_MS = 30_000
/** How often a worker that died of a defect is started again before the log gives up. */
const MAX_RESTARTS = 3
/** The worker's entry in the sources, beside this module. */
const SOURCE_ENTRY = fileURLToPath(new URL('./request-log-worker.ts', import.meta.url))

export interface RequestLogOptions {
  /** The log's own database file (src/core/store/request-log-database.ts), or ':memory:'. */
  path: string
  nativeBinding?: string | undefined
  /** Rows kept; the oldest beyond it are deleted after each batch. */
  capacity: number
  clock: Clock
  flushDelayMs?: number | undefined
  /**
   * The worker's entry: the bundle's (the server passes it, src/server/inspector/request-log-worker-entry.ts);
   * by default this module's TypeScript sibling, for runs from the sources.
   */
  workerPath?: string | undefined
}

export type RequestListQuery = ListQuery

/** A scenario import's rows, written but not committed until the rest of the state is. */
export interface StagedReplace {
  commit(): void
  rollback(): void
}

/**
 * The request inspector's store: a bounded ring of redacted exchanges, in a database file of its
 * own that a worker thread writes (./request-log-worker.ts).
 *
 * `record` runs on the request path: it queues the capture, and a batch is posted to the worker
 * every FLUSH_DELAY_MS (or every POST_BATCH captures). Redaction, the SQL and the ring's trimming
 * happen there, on the other core, so a call answered here pays none of it. Reads wait
 * (synchronously) for the worker to write what was recorded before them, so a QA script sees
 * every request that has finished, as before the log had a thread of its own.
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
  /** The id of the newest entry written (ids grow and are never reused), everything finished before written first. */
  newestId(): number
  /** Entries kept, and of those the UI's own calls. */
  count(): { requests: number; uiRequests: number }
  /** Empties the log, queued entries included; answers how many rows went. */
  clear(): number
  /** Every row as stored (`columns` of request_log), oldest first: a scenario export. */
  rows(columns: readonly string[]): Record<string, unknown>[]
  /**
   * Replaces every row with `rows` (values in the order of `columns`), held uncommitted until the
   * answer's commit or rollback. Throws the index of a row refused and why, with nothing changed.
   */
  stageReplace(columns: readonly string[], rows: readonly (readonly unknown[])[]): StagedReplace
  /**
   * Called with each entry written after `after` (the newest written now, when not given), once,
   * in order, with its redacted exchange as stored (for the text search of a live stream).
   * Returns the unsubscribe function.
   */
  subscribe(listener: (entry: RequestSummary, exchangeText: string) => void, after?: number): () => void
  /** Live subscriptions (open event streams). */
  subscribers(): number
  /** Where a dropped batch is reported (requests are never failed by it). */
  onWriteError(listener: (error: unknown) => void): () => void
  /** Captures recorded and not yet written. */
  pending(): number
  /** Writes what is queued (unless storage refuses it now). */
  flush(): void
  /**
   * Writes what is queued, once more even while storage refuses writes, and stops recording.
   * Answers how many queued requests could still not be written (they are not in the log).
   */
  close(): number
}

export class RequestLogReplaceError extends Error {
  constructor(
    readonly index: number,
    readonly reason: string
  ) {
    super(`request ${index} cannot be stored: ${reason}`)
  }
}

interface Listener {
  listener: (entry: RequestSummary, exchangeText: string) => void
  /** The newest id it was given (or asked to start after). */
  lastId: number
}

interface PostedBatch {
  lastSeq: number
  captures: PostedCapture[]
}

export function createRequestLog(options: RequestLogOptions): RequestLog {
  const { clock } = options
  const capacity = Math.max(1, Math.floor(options.capacity))
  const flushDelayMs = options.flushDelayMs ?? FLUSH_DELAY_MS
  const signal = new SharedArrayBuffer(SIGNAL_BYTES)
  const flags = new Int32Array(signal, 0, 2)
  const settled = new BigInt64Array(signal, SETTLED_OFFSET, 1)

  let worker: Worker | null = null
  let replies: MessagePort | null = null
  let restarts = 0
  /** Whether the last attempt to start the worker failed (said once). */
  let startFailed = false
  let closed = false
  let queue: PostedCapture[] = []
  let timer: ReturnType<typeof setTimeout> | null = null
  /** Number of the newest capture recorded (posted or queued here). */
  let seq = 0
  /** Posted and not yet settled by the worker: posted again to a worker started after one died. */
  let unsettled: PostedBatch[] = []
  let callId = 0
  const redactionIds = new Map<CaptureRedaction, number>()
  const listeners = new Set<Listener>()
  const errorListeners = new Set<(error: unknown) => void>()

  const reportError = (error: unknown) => {
    for (const listener of errorListeners) {
      try {
        listener(error)
      } catch {
        // A broken reporter must not take the log down with it.
      }
    }
  }

  /** A message of the worker; entries go to every listener, or to `only`. */
  function onMessage(message: FromWorker, only?: Listener): void {
    if (message.kind === 'failed') {
      reportError(new Error(message.message))
      return
    }
    for (const { summary, exchangeText } of message.entries) {
      for (const subscription of only ? [only] : listeners) {
        // Read at subscribe and streamed too, or written before it subscribed: once, in order.
        if (summary.id <= subscription.lastId) continue
        subscription.lastId = summary.id
        try {
          subscription.listener(summary, exchangeText)
        } catch (error) {
          reportError(error)
        }
      }
    }
  }

  const send = (message: ToWorker) => running().postMessage(message)

  /** The worker, started on first use: a server that records nothing starts none. */
  function running(): Worker {
    if (worker) return worker
    if (closed) throw new Error('the request log is closed (or stopped: see the error said before)')
    const channel = new MessageChannel()
    const data: LogWorkerData = {
      path: options.path,
      nativeBinding: options.nativeBinding,
      capacity,
      signal,
      replies: channel.port2
    }
    const started = startWorker(options.workerPath ?? SOURCE_ENTRY, data, [channel.port2])
    started.on('message', (message: FromWorker) => onMessage(message))
    started.on('error', (error) => reportError(error))
    started.on('exit', () => {
      if (worker !== started) return
      worker = null
      replies?.close()
      replies = null
      if (!closed) restart()
    })
    // The log never keeps a process alive on its own. After the 'message' listener: a Worker's
    // first one refs its port again (nodejs/node#53036), and a script that never closed the log
    // waited for ever.
    started.unref()
    worker = started
    replies = channel.port1
    // What a worker before it was told: the rules, the captures it had not settled, the stream.
    for (const [redaction, id] of redactionIds)
      started.postMessage({ kind: 'redaction', id, redaction } satisfies ToWorker)
    for (const batch of unsettledBatches()) started.postMessage({ kind: 'record', ...batch } satisfies ToWorker)
    if (listeners.size > 0) started.postMessage({ kind: 'stream', on: true } satisfies ToWorker)
    return started
  }

  function restart(): void {
    Atomics.store(flags, DEAD, 0)
    restarts++
    if (restarts > MAX_RESTARTS) {
      reportError(
        new Error(
          'the request log stopped: its worker died again after being started anew; requests are no longer recorded'
        )
      )
      closed = true
      return
    }
    reportError(new Error('the request log worker stopped; a new one writes what it had not'))
    if (unsettled.length > 0 || listeners.size > 0) running()
  }

  /** Lets go of the batches the worker has settled; answers the number of the newest it settled. */
  function forgetSettled(): number {
    const done = Number(Atomics.load(settled, 0))
    if (unsettled.length > 0 && (unsettled[0] as PostedBatch).lastSeq <= done)
      unsettled = unsettled.filter((batch) => batch.lastSeq > done)
    return done
  }

  /** Batches posted and not settled, cut to what the worker has not settled. */
  function unsettledBatches(): PostedBatch[] {
    const done = forgetSettled()
    return unsettled.map((batch) => {
      const first = batch.lastSeq - batch.captures.length + 1
      return done >= first ? { lastSeq: batch.lastSeq, captures: batch.captures.slice(done - first + 1) } : batch
    })
  }

  function post(): void {
    if (timer) clearTimeout(timer)
    timer = null
    if (queue.length === 0) return
    const batch = { lastSeq: seq, captures: queue }
    queue = []
    // Settled batches are let go as new ones leave: what is kept is what a new worker would need.
    forgetSettled()
    unsettled.push(batch)
    let target: Worker
    try {
      target = running()
    } catch (error) {
      // Kept in `unsettled` for a worker started later; said, never thrown from a timer.
      reportError(error)
      return
    }
    try {
      target.postMessage({ kind: 'record', ...batch } satisfies ToWorker)
    } catch {
      // A body nested too deeply to be cloned (the clone recurses): posted cut as its redaction
      // would cut it, so its entry is the same.
      for (const capture of batch.captures) {
        const { requestBody } = capture
        capture.requestBody = { ...requestBody, parsed: cutPastRedactionDepth(requestBody.parsed) }
      }
      try {
        target.postMessage({ kind: 'record', ...batch } satisfies ToWorker)
      } catch (error) {
        // Nothing else a capture holds can fail a clone; if it did, the batch is said lost. Its
        // numbers still go to the worker, so pending() comes back to 0.
        unsettled.pop()
        reportError(error)
        target.postMessage({ kind: 'record', captures: [], lastSeq: batch.lastSeq } satisfies ToWorker)
      }
    }
  }

  function redactionIdOf(redaction: CaptureRedaction): number {
    let id = redactionIds.get(redaction)
    if (id === undefined) {
      id = redactionIds.size + 1
      redactionIds.set(redaction, id)
      send({ kind: 'redaction', id, redaction })
    }
    return id
  }

  /** Asks the worker, and waits for its answer (everything recorded before is written first). */
  function call<C extends LogCall>(request: C): LogAnswers[C['op']] {
    post()
    const id = ++callId
    send({ kind: 'call', id, call: request })
    const port = replies as MessagePort
    const deadline = Date.now() + CALL_TIMEOUT_MS
    for (;;) {
      const seen = Atomics.load(flags, REPLIES)
      const received: { message: Reply } | undefined = receiveMessageOnPort(port)
      if (received) {
        const reply = received.message
        if (reply.id !== id) continue
        if (reply.ok) return reply.value as LogAnswers[C['op']]
        throw errorOf(reply.error)
      }
      const left = deadline - Date.now()
      if (Atomics.load(flags, DEAD) === 1 || left <= 0)
        throw new Error(
          `the request log did not answer (${request.op}): its worker ${left <= 0 ? 'took too long' : 'stopped'}`
        )
      Atomics.wait(flags, REPLIES, seen, left)
    }
  }

  /** A failed call's error: a storage fault as the domain's (naming the log's file), anything else as it was. */
  function errorOf(error: { message: string; code?: string | undefined }): Error {
    const fault = storageFaultOf(error)
    if (fault !== null) return storageError(fault, options.path, 0)
    return Object.assign(new Error(error.message), error.code ? { code: error.code } : {})
  }

  return {
    record(capture) {
      if (closed) return
      try {
        // Started with the first capture, so it boots while the first batch waits.
        running()
      } catch (error) {
        // No thread to be had (the process's limit): said once, and the request answered unrecorded.
        if (!startFailed) reportError(error)
        startFailed = true
        return
      }
      startFailed = false
      // The capture is the log's from here: cut and numbered in place, not copied.
      const posted = Object.assign(heldCapture(capture), {
        redaction: undefined,
        redactionId: redactionIdOf(capture.redaction),
        atMs: clock.now().getTime() - clock.offsetMs() - capture.durationMs
      })
      seq++
      queue.push(posted)
      if (queue.length >= POST_BATCH) post()
      else if (!timer) {
        timer = setTimeout(post, flushDelayMs)
        // An idle emulator (or a test run) must be able to exit with entries still queued.
        timer.unref()
      }
    },

    list: (query = {}) => call({ op: 'list', query }),
    get: (id) => call({ op: 'get', id }),
    after: (id, limit) => call({ op: 'after', id, limit }),
    newestId: () => call({ op: 'newestId' }),
    count: () => call({ op: 'count' }),

    clear() {
      // Captures not posted yet are dropped here, never written nor counted; the worker drops
      // what it holds. Their numbers still go to it, so pending() comes back to 0.
      if (timer) clearTimeout(timer)
      timer = null
      if (queue.length > 0) {
        queue = []
        send({ kind: 'record', captures: [], lastSeq: seq })
      }
      return call({ op: 'clear' })
    },

    rows: (columns) => call({ op: 'rows', columns }),

    stageReplace(columns, rows) {
      const refused = call({ op: 'replaceBegin', columns, rows })
      if (refused) throw new RequestLogReplaceError(refused.index, refused.message)
      let ended = false
      const end = (commit: boolean) => {
        if (ended) return
        ended = true
        call({ op: 'replaceEnd', commit })
      }
      return { commit: () => end(true), rollback: () => end(false) }
    },

    subscribe(listener, after) {
      // The worker streams from this point on; what it wrote after `after` before then is read
      // here. An entry both read and streamed is given once: each listener hears ids in order.
      if (listeners.size === 0) send({ kind: 'stream', on: true })
      const subscription: Listener = { listener, lastId: after ?? call({ op: 'newestId' }) }
      const missed = after === undefined ? [] : call({ op: 'written', after, limit: capacity })
      listeners.add(subscription)
      onMessage({ kind: 'written', entries: missed }, subscription)
      return () => {
        if (!listeners.delete(subscription) || listeners.size > 0 || closed || !worker) return
        send({ kind: 'stream', on: false })
      }
    },

    subscribers: () => listeners.size,

    onWriteError(listener) {
      errorListeners.add(listener)
      return () => {
        errorListeners.delete(listener)
      }
    },

    pending: () => seq - Number(Atomics.load(settled, 0)),

    flush() {
      if (closed || (!worker && queue.length === 0)) return
      call({ op: 'flush' })
    },

    close() {
      if (closed) return 0
      // A log that never recorded has no worker, and nothing to write.
      if (!worker && queue.length === 0 && unsettled.length === 0) {
        closed = true
        return 0
      }
      let unwritten: number
      try {
        unwritten = call({ op: 'close' })
      } catch (error) {
        reportError(error)
        unwritten = seq - Number(Atomics.load(settled, 0))
      }
      closed = true
      if (timer) clearTimeout(timer)
      listeners.clear()
      errorListeners.clear()
      const stopping = worker
      worker = null
      void stopping?.terminate()
      return unwritten
    }
  }
}

/**
 * A worker on `entry`: the bundle's JavaScript, or, run from the sources (the tests), the same
 * module's TypeScript through jiti, a development dependency.
 */
function startWorker(entry: string, workerData: LogWorkerData, transferList: MessagePort[]): Worker {
  const name = REQUEST_LOG_THREAD_NAME
  if (!entry.endsWith('.ts')) return new Worker(entry, { name, workerData, transferList })
  const jiti = createRequire(import.meta.url).resolve('jiti')
  // A failed import rejects unhandled, which ends the worker as an uncaught error would.
  const source = `
    const { createJiti } = require(${JSON.stringify(jiti)})
    createJiti(${JSON.stringify(entry)}).import(${JSON.stringify(entry)})
  `
  return new Worker(source, { eval: true, name, workerData, transferList })
}
