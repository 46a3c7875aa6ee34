import type { IncomingHttpHeaders } from 'node:http'
import { finished } from 'node:stream'
import type { Duplex, Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Dispatcher } from 'undici'

/** The upstream's answer as it arrives: its body is a stream nobody has read yet. */
export interface UpstreamAnswer {
  statusCode: number
  headers: IncomingHttpHeaders
  stream: Readable
}

export interface ForwardHandlers {
  /** The request's headers as they go upstream (Host already the upstream's). */
  requestHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders
  /** The answer's headers as the client gets them; set on the reply before `onAnswer`. */
  answerHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders
  /** The upstream answered: its status and headers are on the reply, its body is the caller's to send. */
  onAnswer(answer: UpstreamAnswer): void
  /** No answer came: undici's (or Node's) error, its `code` saying why. */
  onError(error: unknown): void
}

/**
 * Forwards one request to the upstream at `upstreamUrl` over an undici pool, the way an HTTP proxy
 * does: the method, the raw path and query (after the upstream's own base path) and the body stream
 * go on; Host becomes the upstream's; the answer's status and headers are set on the reply and its body handed over as it
 * arrives. Nothing is retried: a forwarded activation must reach the upstream once.
 *
 * The pool is a promise because undici is loaded only when forwarding is first needed: it is the
 * largest module the server has, and most starts never forward (cold start, bench/README.md).
 */
export function forwardRequest(
  pool: Promise<Dispatcher>,
  request: FastifyRequest,
  reply: FastifyReply,
  upstreamUrl: string,
  body: Readable | null,
  handlers: ForwardHandlers
): void {
  const upstream = new URL(upstreamUrl)
  const headers = handlers.requestHeaders({ ...request.headers, host: upstream.host })
  pool
    .then((dispatcher) => {
      // The upload ended (the client left) while undici was loading: nothing to forward.
      if (body?.destroyed) throw Object.assign(new Error('The request body ended early.'), { code: 'ECONNRESET' })
      return dispatcher.request({
        origin: upstream.origin,
        // As the client sent them, never re-parsed: the upstream judges the bytes it is given.
        path: upstream.pathname.replace(/\/$/, '') + request.url,
        method: request.method,
        headers,
        body
      })
    })
    .then(
      (answer) => {
        try {
          reply.code(answer.statusCode)
        } catch {
          // A status Fastify cannot send (600 and up): no usable answer came.
          discard(answer.body)
          handlers.onError(
            Object.assign(new Error('not an HTTP status'), { code: BAD_STATUS, status: answer.statusCode })
          )
          return
        }
        // Chunked or not is this hop's business: the reply frames the copy itself.
        delete answer.headers['transfer-encoding']
        for (const [name, value] of Object.entries(handlers.answerHeaders(answer.headers))) {
          if (value !== undefined) reply.header(name, value)
        }
        // An HTTP/1 connection cannot be reused before its request body was read whole.
        if (!request.raw.complete) reply.header('connection', 'close')
        if (reply.raw.destroyed || request.raw.aborted) {
          // The client left before the answer came: nobody to copy it to.
          discard(answer.body)
          return
        }
        handlers.onAnswer({ statusCode: answer.statusCode, headers: answer.headers, stream: answer.body })
      },
      (error: unknown) => {
        if (!reply.sent) handlers.onError(error)
      }
    )
}

/** The `code` of the error an answer with a status no reply can carry (600 and up) is reported as. */
export const BAD_STATUS = 'UPSTREAM_BAD_STATUS'

/**
 * The upstream's answer through `tap`, each destroyed with the other: an upstream that drops
 * mid-answer drops the client too (never a short 200), and a client that leaves releases the
 * upstream's connection at once (a paused undici body would hold it: its timeout does not run).
 * A pipe and a `finished` on each side rather than `stream.pipeline`, which makes an
 * AbortController for every answer and aborts it when the answer ends: a DOMException with its
 * stack, about 50 us of a forwarded call in a profile of one call at a time.
 */
export function throughTap<T extends Duplex>(answer: Readable, tap: T): T {
  answer.pipe(tap)
  finished(answer, (error) => {
    if (error) tap.destroy(error)
  })
  finished(tap, (error) => {
    if (error) answer.destroy()
  })
  return tap
}

/** Drops an answer's body unread; undici reports that as an error nobody needs to hear. */
export function discard(body: Readable): void {
  body.once('error', () => undefined)
  body.destroy()
}

/**
 * Whether a request path has a `..` segment, plain or percent-encoded: the URL of the forwarded
 * call would climb out of the upstream's base path with it (a proxy's classic hole). A path that
 * does not decode is judged as it stands: its bytes go on, and the upstream says what it makes of them.
 */
export function climbsOut(path: string): boolean {
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    // A stray `%`: the segments are the raw ones.
  }
  return DOT_DOT_SEGMENT.test(decoded) || DOT_DOT_SEGMENT.test(path)
}

// A backslash too: the URL parser reads one as a slash in an http(s) URL.
const DOT_DOT_SEGMENT = /(?:^|[/\\])\.\.(?:[/\\]|$)/
