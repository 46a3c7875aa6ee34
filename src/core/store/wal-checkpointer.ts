import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** How often the background connection folds the WAL into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1000
/** How long `stop()` waits for the background connection to close. */
const STOP_WAIT_MS = 2_000

/**
 * The worker's code, plain CommonJS (an eval worker: nothing to bundle or resolve at build time).
 * It opens its own connection to the database and runs a PASSIVE checkpoint on a timer: passive
 * never waits for or blocks the server's connection, which keeps reading and writing meanwhile.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.modulePath)
const db = new Database(workerData.path, { fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) })
const stopped = new Int32Array(workerData.stopped)
const timer = setInterval(() => {
  try {
    const at = Date.now()
    const [result] = db.pragma('wal_checkpoint(PASSIVE)')
    if (workerData.report) parentPort.postMessage({ kind: 'checkpointed', at, log: result.log, checkpointed: result.checkpointed })
  } catch (error) {
    parentPort.postMessage({ kind: 'failed', code: error && error.code, message: String(error && error.message) })
  }
}, workerData.intervalMs)
parentPort.on('message', (message) => {
  if (message !== 'stop') return
  clearInterval(timer)
  try { db.close() } finally {
    Atomics.store(stopped, 0, 1)
    Atomics.notify(stopped, 0)
    parentPort.close()
  }
})
parentPort.postMessage({ kind: 'ready' })
`

export interface CheckpointReport {
  at: number
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number
  checkpointed: number
}

export interface WalCheckpointerOptions {
  path: string
  nativeBinding?: string | undefined
  intervalMs?: number
  /** Called once if the background connection cannot run (it did not start, or a checkpoint threw). */
  onFailure(error: unknown): void
  /**
   * Whether a checkpoint's error passes (a full disk, a read-only file, a lock held elsewhere): the
   * checkpointer then keeps its timer and checkpoints again once the disk allows. Default: none does.
   */
  isTransient?: (error: { code?: string }) => boolean
  /** Called with every checkpoint's frame counts and when it began, in ms since the epoch (tests). */
  onCheckpoint?: (frames: CheckpointReport) => void
}

export interface WalCheckpointer {
  /** true once the background connection is open; false if it never will be. */
  readonly ready: Promise<boolean>
  /** Stops the timer and waits (briefly, synchronously) for the background connection to close. */
  stop(): void
}

/**
 * Checkpoints a WAL database from a worker thread, so the server's thread never copies pages into
 * the database file or waits for its fsync: with SQLite's automatic checkpoint that work fell on
 * whichever request's commit crossed the threshold (a stall of tens of ms, seen in the bench's p99).
 * The caller turns its own automatic checkpoint off once `ready` is true, and keeps it otherwise.
 */
export function startWalCheckpointer(options: WalCheckpointerOptions): WalCheckpointer {
  const stopped = new SharedArrayBuffer(4)
  let failed = false
  let resolveReady: (ready: boolean) => void = () => undefined
  const ready = new Promise<boolean>((resolve) => {
    resolveReady = resolve
  })
  const fail = (error: unknown) => {
    resolveReady(false)
    if (failed) return
    failed = true
    void worker.terminate()
    options.onFailure(error)
  }
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    // The OS thread's name on Node 24 (`top -H`); Node 20 and 22 leave it `node`.
    name: 'wal-checkpoint',
    workerData: {
      // Resolved here, where node_modules is known: an eval worker resolves from the working directory.
      modulePath: createRequire(import.meta.url).resolve('better-sqlite3'),
      path: options.path,
      nativeBinding: options.nativeBinding,
      intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
      report: options.onCheckpoint !== undefined,
      stopped
    }
  })
  worker.on('message', (message: { kind: string; message?: string; code?: string } & Partial<CheckpointReport>) => {
    if (message.kind === 'ready') resolveReady(true)
    else if (message.kind === 'checkpointed')
      options.onCheckpoint?.({ at: message.at ?? 0, log: message.log ?? 0, checkpointed: message.checkpointed ?? 0 })
    else if (message.kind === 'failed') {
      const error = Object.assign(new Error(message.message), { code: message.code })
      // The next tick tries again: the WAL keeps every commit meanwhile.
      if (!options.isTransient?.(error)) fail(error)
    }
  })
  worker.on('error', fail)
  worker.on('exit', () => resolveReady(false))
  // The checkpointer never keeps a process alive on its own. After the 'message' listener: a
  // Worker's first one refs its port again (nodejs/node#53036).
  worker.unref()
  return {
    ready,
    stop() {
      if (failed) return
      failed = true
      worker.postMessage('stop')
      // Synchronous on purpose: Store.close() is, and the database file must hold everything once it returns.
      Atomics.wait(new Int32Array(stopped), 0, 0, STOP_WAIT_MS)
    }
  }
}
