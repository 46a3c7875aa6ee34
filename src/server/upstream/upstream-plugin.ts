import { randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { performance } from 'node:perf_hooks'
import type { Readable } from 'node:stream'
import { rootCertificates } from 'node:tls'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Dispatcher } from 'undici'

import type { ForwardedExchange, ForwardedExchangeObserver } from '../../core/upstream/forwarded-exchange'
import { createUpstreamSettings } from '../../core/upstream/upstream-setting'
import type { UpstreamSettings } from '../../core/upstream/upstream-setting'
import { SOURCE_HEADER as CLIENT_HEADER } from '../../shared/contract/inspector'
import { isServiceRequest } from '../inspector/surfaces'
import { releaseAfterFault } from '../plugins/fault-injection'
import { afterStageFault } from './after-stage-fault'
import { BODY_COPY_LIMIT, bodyTap } from './body-copy'
import type { BodyCopy } from './body-copy'
import { climbsOut, discard, forwardRequest, throughTap } from './forward-request'
import { SOURCE_HEADER_NAME as SOURCE_HEADER } from './source-header'
import type { UpstreamAccess, UpstreamFetched } from './upstream-access'
import { upstreamFailureOf } from './upstream-failure'

/** How `serve --upstream...` (and the desktop app) start the forwarding. */
export interface UpstreamOptions {
  /** The upstream's base URL; null or absent: off until PUT /_emulator/upstream. */
  url?: string | null | undefined
  /** Patterns in the fault rules' syntax; default `/api/**`, `/.well-known/**`. */
  routes?: readonly string[] | undefined
  /** PEM certificates trusted besides the system's (`--upstream-ca`). */
  ca?: string | undefined
  /** How long a connection may take (default 5 s). */
  connectTimeoutMs?: number | undefined
  /** How long the upstream may take to its first byte, and between two later ones (default 30 s). */
  firstByteTimeoutMs?: number | undefined
}

export const UPSTREAM_DEFAULT_TIMEOUTS = { connectMs: 5_000, firstByteMs: 30_000 } as const

/** Where a forwarded request goes and how it went, for the inspector and the fault stage. */
export interface UpstreamRoute {
  /** The upstream's base URL when the request was received. */
  readonly url: string
  /** Set once the upstream answered. */
  answer: { status: number; durationMs: number } | null
  /**
   * The request body, when a hook had to read it whole before forwarding (a fault rule that
   * matches a body field): these very bytes go to the upstream. Null: the body streams on.
   */
  body: Buffer | null
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Where this request is forwarded, or null when the emulator answers it (docs/upstream.md). */
    upstreamRoute: UpstreamRoute | null
  }
}

// Hop-by-hop headers (RFC 9110 section 7.6.1, and the older ones proxies still see): they describe
// one connection and are never passed on. `expect` is answered here (Node sends 100 Continue).
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect'
]

/**
 * The first half of the forwarding (docs/upstream.md): the setting, `app.upstream` for other
 * surfaces (the drift check, recordings), and the decision, per request, whether it goes to the
 * upstream. Registered before the fault injector, which needs the decision for a rule's stage.
 */
export const upstreamAccess = fp<{ upstream?: UpstreamOptions | undefined }>(
  async (app, options) => {
    const config = options.upstream ?? {}
    const settings: UpstreamSettings = createUpstreamSettings(
      { url: config.url ?? null, routes: config.routes },
      () => {
        app.core.changes.announce({ kind: 'upstream' })
        loadWhenSet()
      }
    )
    const connectMs = config.connectTimeoutMs ?? UPSTREAM_DEFAULT_TIMEOUTS.connectMs
    const firstByteMs = config.firstByteTimeoutMs ?? UPSTREAM_DEFAULT_TIMEOUTS.firstByteMs
    // One connection pool for forwarded calls and the emulator's own (the JWKS): the system's CAs
    // plus --upstream-ca, certificates always verified. undici is loaded when first needed (it is
    // the largest module the server has, and most starts never forward), or as soon as an upstream
    // is set, so the first forwarded call does not wait for it.
    let pool: Promise<Dispatcher> | null = null
    // Once closed, no pool is made: one made after onClose (the start's deferred load firing after a
    // quick close, a late drift check) would never be destroyed.
    let closed = false
    const connectionPool = (): Promise<Dispatcher> => {
      if (closed) return Promise.reject(new Error('The emulator has closed: nothing is forwarded any more.'))
      return (pool ??= import('undici').then(
        ({ Agent }) =>
          new Agent({
            connect: {
              timeout: connectMs,
              rejectUnauthorized: true,
              ...(config.ca ? { ca: [...rootCertificates, config.ca] } : {})
            },
            headersTimeout: firstByteMs,
            bodyTimeout: firstByteMs
          })
      ))
    }
    const loadWhenSet = () => {
      if (settings.get().url !== null) void connectionPool().catch(() => undefined)
    }
    app.addHook('onReady', async () => {
      // After the start, not during it: the first answer is not kept waiting for the load.
      setImmediate(loadWhenSet)
    })
    app.addHook('onClose', async () => {
      closed = true
      if (pool === null) return
      await pool.then((agent) => agent.destroy()).catch(() => undefined)
    })
    // This emulator's mark in Via: a request that carries it already went through here (a loop).
    const mark = `plugin-license-emulator-${randomBytes(6).toString('hex')}`
    const observers = new Set<ForwardedExchangeObserver>()

    const access: UpstreamAccess & UpstreamInternals = {
      current: () => settings.get(),
      set: (setting) => settings.set(setting),
      settings,
      connectionPool,
      mark,
      timeouts: { connectMs, firstByteMs },
      addObserver(observer) {
        observers.add(observer)
      },
      notify(exchange) {
        for (const observer of observers) {
          try {
            observer.observe(exchange)
          } catch (error) {
            app.log.warn(
              { err: { message: error instanceof Error ? error.message : String(error) } },
              'upstream observer failed'
            )
          }
        }
      },
      async fetch(path) {
        const { url } = settings.get()
        if (url === null) throw new Error('Forwarding is off: there is no upstream to fetch from.')
        const target = new URL(url + (path.startsWith('/') ? path : `/${path}`))
        const answer = await (
          await connectionPool()
        ).request({
          origin: target.origin,
          path: target.pathname + target.search,
          method: 'GET',
          headers: { via: `1.1 ${mark}`, accept: 'application/json' }
        })
        const chunks: Buffer[] = []
        let kept = 0
        for await (const chunk of answer.body as AsyncIterable<Buffer>) {
          if (kept < BODY_COPY_LIMIT) chunks.push(chunk)
          kept += chunk.length
        }
        const fetched: UpstreamFetched = {
          status: answer.statusCode,
          headers: answer.headers,
          body: Buffer.concat(chunks).subarray(0, BODY_COPY_LIMIT)
        }
        return fetched
      }
    }
    app.decorate('upstream', access)
    app.decorateRequest('upstreamRoute', null)

    app.addHook('onRequest', async (request, reply) => {
      if (!isServiceRequest(request.url)) return
      const via = request.headers.via
      if (via !== undefined && String(via).includes(mark)) {
        // Signed with the mark, so the forwarding that sent it here knows this answer for its own.
        reply.header(LOOP_HEADER, mark)
        return sendEnvelope(reply, 508, LOOP_ANSWER)
      }
      const { url } = settings.get()
      if (url === null || !settings.forwards(request.url)) return
      // The emulator's own screens manage the emulator's state (a developer session it issued, its
      // credentials, its library): the upstream knows none of it. The tester, standing in for a
      // plugin, is forwarded like one.
      if (request.headers[CLIENT_HEADER] === 'ui') return
      // The matched route too, as the fault injector checks it: an escaped control-plane path stays local.
      const route = request.routeOptions.url
      if (route !== undefined && !isServiceRequest(route)) return
      request.upstreamRoute = { url, answer: null, body: null }
    })

    // Every answer of the service API says who made it; a forwarded one is marked as it is copied.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (!reply.hasHeader(SOURCE_HEADER) && isServiceRequest(request.url)) reply.header(SOURCE_HEADER, 'emulator')
      done(null, payload)
    })
  },
  { name: 'upstream-access', dependencies: ['emulator-context'] }
)

/**
 * Set on the 508 this emulator answers a request that came back to it: the forwarding that sent
 * the request reads its own mark there, and answers the 508 as its own, not the upstream's.
 */
const LOOP_HEADER = 'x-emulator-loop'

const LOOP_ANSWER = {
  ok: false,
  error: 'UPSTREAM_LOOP',
  message: 'This request already went through this emulator: the upstream points back at it.'
} as const

/** What the forwarding half needs of the first half besides the public UpstreamAccess. */
interface UpstreamInternals {
  settings: UpstreamSettings
  connectionPool(): Promise<Dispatcher>
  mark: string
  timeouts: { connectMs: number; firstByteMs: number }
  notify(exchange: ForwardedExchange): void
}

function internalsOf(access: UpstreamAccess): UpstreamInternals {
  return access as UpstreamAccess & UpstreamInternals
}

/**
 * The second half: forwards a request the first half marked, over undici (forward-request.ts).
 * Registered after the fault injector, so a `before` rule has answered (or waited) already. The
 * body goes on as a stream (chunked uploads, `Expect: 100-continue`), the answer comes back as
 * one, untouched (compressed bytes stay compressed), with a capped copy taken on the way for the
 * inspector and the observers.
 */
export const upstreamForwarding = fp(
  async (app) => {
    const internals = internalsOf(app.upstream)

    app.addHook('onRequest', async (request, reply) => {
      const route = request.upstreamRoute
      if (route === null || reply.sent) return
      const started = performance.now()
      const startedAt = new Date().toISOString()
      const pathOnly = request.url.split('?')[0] ?? request.url
      const queryAt = request.url.indexOf('?')
      const rawQuery = queryAt < 0 ? '' : request.url.slice(queryAt + 1)
      if (climbsOut(pathOnly)) {
        return sendEnvelope(reply, 400, {
          ok: false,
          error: 'MALFORMED_REQUEST',
          message: 'The path has a ".." segment: a forwarded call may not climb out of the upstream\'s base URL.'
        })
      }

      // The request body as it arrives, with a copy kept on the way.
      let requestCopy: BodyCopy | null = null
      const hasBody =
        request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0
      let body: Readable | null = null
      if (hasBody) {
        const tap = bodyTap((copy) => {
          requestCopy = copy
        })
        // undici listens once it sends the body; until then (it may still be loading) a client that
        // leaves mid-upload must not make the tap's error an uncaught one.
        tap.on('error', () => undefined)
        if (route.body !== null) tap.end(route.body)
        else {
          request.raw.pipe(tap)
          request.raw.once('error', (error) => tap.destroy(error))
        }
        body = tap
      }

      forwardRequest(internals.connectionPool(), request, reply, route.url, body, {
        requestHeaders: (headers) => {
          const out = withoutHopByHop(headers)
          const via = headers.via
          out.via = `${via ? `${String(via)}, ` : ''}1.1 ${internals.mark}`
          return out
        },
        answerHeaders: (headers) => {
          const out = withoutHopByHop(headers)
          out[SOURCE_HEADER] = 'upstream'
          return out
        },
        onError: (error) => {
          const failure = upstreamFailureOf(error, route.url)
          request.log.warn({ requestId: request.id, error: failure.code, reason: failure.reason }, failure.message)
          route.answer = null
          // No upstream answer: an `after` rule had nothing to act on (it keeps its use).
          releaseAfterFault(request)
          void sendEnvelope(reply, failure.code === 'UPSTREAM_TIMEOUT' ? 504 : 502, {
            ok: false,
            error: failure.code,
            message: failure.message,
            ...(failure.reason ? { reason: failure.reason } : {})
          })
        },
        onAnswer: (response) => {
          const upstreamStatus = response.statusCode
          const upstreamHeaders = response.headers
          if (headerText(upstreamHeaders[LOOP_HEADER]) === internals.mark) {
            // The upstream is this emulator: the 508 is its own answer, and no upstream answered.
            discard(response.stream)
            releaseAfterFault(request)
            for (const name of Object.keys(upstreamHeaders)) reply.removeHeader(name)
            reply.removeHeader(SOURCE_HEADER)
            void sendEnvelope(reply, 508, LOOP_ANSWER)
            return
          }
          route.answer = { status: upstreamStatus, durationMs: performance.now() - started }
          const contentEncoding = headerText(upstreamHeaders['content-encoding'])
          const finishExchange = (copy: BodyCopy) => {
            const { decoded } = copy
            if (route.answer) route.answer.durationMs = performance.now() - started
            showRequestBody(request, requestCopy)
            const capture = request.inspectorCapture
            if (capture && !decoded.truncated && decoded.body.length > 0) {
              capture.response = { kind: 'bytes', bytes: decoded.body }
            }
            const exchange: ForwardedExchange = {
              requestId: request.id,
              method: request.method,
              path: pathOnly,
              rawQuery,
              requestHeaders: { ...request.headers },
              requestBody: requestCopy === null ? null : requestCopy.head,
              upstreamUrl: route.url,
              status: upstreamStatus,
              responseHeaders: upstreamHeaders,
              responseBody: decoded.body.length > 0 ? decoded.body : null,
              responseBodyTruncated: decoded.truncated,
              // The copies stop at 1 MiB; what the taps counted of every byte goes with them (recordings).
              requestBodyWhole: requestCopy?.whole ?? null,
              responseBodyWhole: copy.whole,
              startedAt,
              durationMs: performance.now() - started
            }
            // Handed on once the client's answer is over (sent, or cut by a fault): an observer's
            // work never delays it. An `after` fault may have answered before the upstream's body ended.
            const raw = reply.raw
            if (raw.writableFinished || raw.destroyed) internals.notify(exchange)
            else raw.once('close', () => internals.notify(exchange))
          }
          const fault = request.fault
          if (fault && fault.rule.stage === 'after') {
            afterStageFault(
              reply,
              fault,
              response.stream,
              (stream) => throughTap(stream, bodyTap(finishExchange, { contentEncoding })),
              Object.keys(upstreamHeaders)
            )
            return
          }
          void reply.send(throughTap(response.stream, bodyTap(finishExchange, { contentEncoding })))
        }
      })
      return reply
    })
  },
  { name: 'upstream-forwarding', dependencies: ['upstream-access'] }
)

/** The request body as the inspector shows it: what went upstream, read from the copy. */
function showRequestBody(request: FastifyRequest, copy: BodyCopy | null): void {
  if (copy === null) {
    request.body = undefined
    return
  }
  // A cut copy is not shown (half a secret could end it); its size is declared all the same.
  if (copy.truncated) {
    request.body = undefined
    return
  }
  const text = copy.head.toString('utf8')
  request.rawBody = text
  request.body = undefined
  if (/^application\/(?:[\w.+-]+\+)?json\b/i.test(String(request.headers['content-type'] ?? ''))) {
    try {
      request.body = JSON.parse(text)
    } catch {
      // Not JSON after all: the text alone is recorded.
    }
  }
}

/**
 * The headers without the hop-by-hop ones: the fixed list, and those the message's own Connection
 * header names (RFC 9110 section 7.6.1).
 */
function withoutHopByHop(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers }
  for (const name of String(headers.connection ?? '').split(',')) delete out[name.trim().toLowerCase()]
  for (const name of HOP_BY_HOP) delete out[name]
  return out
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

/** An answer in the contract's envelope, serialized here: the route's schema is not the one answering. */
export function sendEnvelope(reply: FastifyReply, status: number, body: Record<string, unknown>): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body))
}
