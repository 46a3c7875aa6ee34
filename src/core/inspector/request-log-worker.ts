/**
 * The request log's worker thread (started by ./request-log.ts): it owns the log's database file,
 * redacts and writes what the server's thread posts, and answers its questions on the reply port.
 * Run as a worker's entry only.
 */
import { writeFileSync } from 'node:fs'
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import type { MessagePort } from 'node:worker_threads'

import { openRequestLogDatabase } from '../store/request-log-database'
import { DEAD, REPLIES, REQUEST_LOG_THREAD_NAME, SETTLED_OFFSET } from './request-log-protocol'
import type { FromWorker, LogWorkerData, Reply, ToWorker } from './request-log-protocol'
import { createRequestLogWriter } from './request-log-writer'

if (!isMainThread && parentPort) serve(parentPort, workerData as LogWorkerData)

function serve(port: MessagePort, data: LogWorkerData): void {
  nameThisThread(REQUEST_LOG_THREAD_NAME)
  const flags = new Int32Array(data.signal, 0, 2)
  const settled = new BigInt64Array(data.signal, SETTLED_OFFSET, 1)
  const { replies } = data
  const post = (message: FromWorker) => port.postMessage(message)
  // A defect that ends this thread: said at once to a server thread waiting for a reply.
  process.on('uncaughtException', (error) => {
    Atomics.store(flags, DEAD, 1)
    Atomics.notify(flags, REPLIES)
    throw error
  })
  const writer = createRequestLogWriter({
    open: () =>
      openRequestLogDatabase(data.path, data.nativeBinding, (setAside, reason) =>
        post({
          kind: 'failed',
          message: `the request log file could not be read (${reason}): kept as ${setAside}, and a new log started`
        })
      ),
    file: data.path === ':memory:' ? undefined : data.path,
    capacity: data.capacity,
    settled: (seq) => Atomics.store(settled, 0, BigInt(seq)),
    written: (entries) => post({ kind: 'written', entries }),
    failed: (message) => post({ kind: 'failed', message })
  })
  const reply = (message: Reply) => {
    replies.postMessage(message)
    Atomics.add(flags, REPLIES, 1)
    Atomics.notify(flags, REPLIES)
  }
  port.on('message', (message: ToWorker) => {
    switch (message.kind) {
      case 'redaction':
        writer.redaction(message.id, message.redaction)
        return
      case 'record':
        writer.receive(message.captures, message.lastSeq)
        return
      case 'stream':
        writer.stream(message.on)
        return
      case 'call':
        try {
          reply({ id: message.id, ok: true, value: writer.call(message.call) })
        } catch (error) {
          const { message: text, code } = error as { message?: unknown; code?: unknown }
          reply({
            id: message.id,
            ok: false,
            error: { message: String(text ?? error), code: typeof code === 'string' ? code : undefined }
          })
        }
        if (message.call.op === 'close') {
          port.close()
          replies.close()
        }
    }
  })
}

/**
 * Names this thread as the OS shows it, where Node did not (Node 20 and 22 leave a worker's thread `node`):
 * what it costs shows up by name in `top -H` and the bench's CPU by thread. Linux only; a thread
 * may rename itself through /proc/thread-self/comm (proc(5)).
 */
function nameThisThread(name: string): void {
  if (process.platform !== 'linux') return
  try {
    writeFileSync('/proc/thread-self/comm', name)
  } catch {
    // A name is a convenience: a /proc mounted read-only or absent changes nothing else.
  }
}
