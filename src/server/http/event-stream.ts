import { PassThrough } from 'node:stream'
import type { FastifyInstance, FastifyReply } from 'fastify'

/** A comment line every so often keeps proxies and idle timers from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000
/** A client this far behind is dropped rather than buffered without end; EventSource reconnects. */
const MAX_BUFFERED_BYTES = 1024 * 1024

export interface EventStream {
  /** Writes one event (or comment) as given; drops the client when it stopped reading. */
  send(text: string): void
  /** Ends the stream (and runs the cleanup given to open). */
  end(): void
  /** The reply to return from the handler. */
  reply: FastifyReply
}

/**
 * The server-sent event streams of one app: each open one is ended before the app closes (an
 * open stream would keep close() waiting for its connection).
 */
export function eventStreams(app: FastifyInstance) {
  const open = new Set<() => void>()
  app.addHook('preClose', async () => {
    for (const end of [...open]) end()
  })

  /** Opens a text/event-stream reply; `onEnd` runs once when it ends, whoever ends it. */
  return function openEventStream(reply: FastifyReply, onEnd: () => void): EventStream {
    const stream = new PassThrough()
    let ended = false
    const end = () => {
      if (ended) return
      ended = true
      clearInterval(heartbeat)
      open.delete(end)
      onEnd()
      stream.end()
    }
    const send = (text: string) => {
      if (ended) return
      // A reader that stopped reading: drop it rather than hold its backlog in memory.
      if (stream.writableLength > MAX_BUFFERED_BYTES) return end()
      stream.write(text)
    }
    const heartbeat = setInterval(() => send(': heartbeat\n\n'), HEARTBEAT_MS)
    heartbeat.unref()
    open.add(end)
    // Fastify destroys the stream when the client disconnects.
    stream.once('close', end)
    stream.write(`retry: 3000\n: connected\n\n`)
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-transform')
      .header('x-accel-buffering', 'no')
    return { send, end, reply: reply.send(stream) }
  }
}
