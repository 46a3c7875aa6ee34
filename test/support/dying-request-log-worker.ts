/**
 * A stand-in entry for the request log's worker thread: the first time it runs (no marker file at
 * PLE_DYING_WORKER_MARKER yet) it dies of a defect on the first capture posted to it; every later
 * time it is the real worker. For what the log does when its thread dies.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'

const marker = process.env.PLE_DYING_WORKER_MARKER
if (!marker) throw new Error('PLE_DYING_WORKER_MARKER names no file')
if (existsSync(marker)) {
  void import('../../src/core/inspector/request-log-worker')
} else {
  writeFileSync(marker, 'died once\n')
  parentPort?.on('message', (message: { kind?: string }) => {
    if (message.kind === 'record') throw new Error('the stand-in worker dies here, as on a defect')
  })
}
