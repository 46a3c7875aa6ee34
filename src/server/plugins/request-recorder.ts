import { performance } from 'node:perf_hooks'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

import { faultOf, queryOf } from '../../core/inspector/redact-exchange'
import type { CapturedPayload, CaptureRedaction, RequestCapture } from '../../core/inspector/types'
import { redactText } from '../../core/redaction/redact'
import { credentialHeaderNames } from '../auth/credential-headers'
import { JsonChunksBody } from '../http/json-chunks'
import { authKindOf } from '../inspector/auth-kind'
import { isServiceRequest, pathOf, surfaceOf } from '../inspector/surfaces'
import { ignoredFieldWarnings } from './tolerant-requests'

/** What the recorder holds for a request between its first hook and its response. */
interface InFlight {
  startedAt: number
  response: CapturedPayload
  done: boolean
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request inspector's capture; null for requests it does not record (control plane, UI). */
    inspectorCapture: InFlight | null
  }
}

const NO_PAYLOAD: CapturedPayload = { kind: 'none' }

/**
 * Records every service API request for the inspector: timing from the first hook, the body
 * bytes on their way to the parser, the payload as it is sent, and the rest when the response
 * has gone. Registered before the routes and the fault injector, so refused, unrouted and
 * fault-injected requests are recorded too. The request path only gathers references, sorts the
 * request (surface, how it authenticated) and queues it (`core.requests.record`); redaction and
 * SQL happen on the log's own thread.
 */
export const requestRecorder = fp(
  async (app) => {
    const log = app.core.requests
    const { products } = app.core
    // The credential header names follow the header prefix, which PUT /_emulator/settings can
    // change at run time: read per request, rebuilt only when the prefix changed.
    let prefix = app.settings.headerPrefix
    let redaction = redactionFor(prefix, app.settings.adminToken)
    const currentRedaction = () => {
      if (app.settings.headerPrefix !== prefix) {
        prefix = app.settings.headerPrefix
        redaction = redactionFor(prefix, app.settings.adminToken)
      }
      return redaction
    }
    const stopReporting = log.onWriteError((error) => {
      // What the log's own thread reports: a batch it dropped, its file set aside, the thread restarted.
      const message = redactText(error instanceof Error ? error.message : String(error))
      app.log.error({ err: { message } }, `request inspector: ${message}`)
    })
    app.addHook('onClose', async () => stopReporting())

    app.decorateRequest('inspectorCapture', null)

    const finish = (request: FastifyRequest, reply: FastifyReply, aborted: boolean) => {
      const inFlight = request.inspectorCapture
      if (!inFlight || inFlight.done) return
      inFlight.done = true
      const params = request.params as Record<string, unknown> | undefined
      const redaction = currentRedaction()
      const parsed = request.sentBody ? request.sentBody.value : request.body
      const surface = surfaceOf(request.url)
      const appId = request.headers[redaction.appIdHeader]
      log.record({
        method: request.method,
        url: request.url,
        // Cut off mid-body, the status line still went out; before that, there was no status.
        status: aborted && !reply.raw.headersSent ? 0 : reply.statusCode,
        durationMs: performance.now() - inFlight.startedAt,
        requestHeaders: request.headers,
        // The JSON parser's text (kept even when it fails to parse); other media types are refused unread.
        requestBody: {
          parsed,
          head: request.rawBody === null ? [] : [request.rawBody],
          receivedBytes: request.rawBody === null ? 0 : Buffer.byteLength(request.rawBody)
        },
        routeProductId: typeof params?.productId === 'string' ? params.productId : null,
        // As the product was when the request was answered; an App ID is 20 characters, so a header
        // of kilobytes is looked up (and kept) by its first 200 only.
        appIdProductId:
          typeof appId === 'string' && appId.trim() !== '' ? products.idOfAppId(appId.trim().slice(0, 200)) : null,
        // Fastify's own view: it hands its headers to writeHead, so the raw response may not list them.
        responseHeaders: reply.getHeaders(),
        response: inFlight.response,
        aborted,
        warnings: ignoredFieldWarnings(request),
        redaction,
        surface,
        authKind: authKindOf({
          headers: request.headers,
          query: queryOf(request.url),
          body: parsed,
          surface,
          path: pathOf(request.url),
          redaction
        }),
        // The rule that fired (set by fault-injection), described as it was then.
        fault: faultOf(request.fault?.rule),
        // docs/upstream.md: a forwarded request the upstream answered (an `after` fault that
        // answered instead, or a failure to reach it, is the emulator's answer).
        ...answerOf(request, reply)
      })
    }

    app.addHook('onRequest', (request, reply, done) => {
      if (isServiceRequest(request.url)) {
        request.inspectorCapture = { startedAt: performance.now(), response: NO_PAYLOAD, done: false }
        // onResponse runs only for a response that finished; this catches the rest (the client
        // went away, or a fault dropped the connection).
        reply.raw.once('close', () => {
          if (!reply.raw.writableFinished) finish(request, reply, true)
        })
      }
      done()
    })

    app.addHook('onSend', (request, _reply, payload, done) => {
      const inFlight = request.inspectorCapture
      if (inFlight) inFlight.response = capturedPayload(payload)
      done(null, payload)
    })

    app.addHook('onResponse', (request, reply, done) => {
      finish(request, reply, false)
      done()
    })
  },
  { name: 'request-recorder', dependencies: ['emulator-context'] }
)

function redactionFor(headerPrefix: string, adminToken: string): CaptureRedaction {
  const names = credentialHeaderNames(headerPrefix)
  return {
    appIdHeader: names.appId,
    credentialHeaders: [names.pluginKey, names.pluginSecret, names.apiKey],
    hiddenHeaders: ['x-emulator-token'],
    hiddenValues: [adminToken]
  }
}

/** The payload as the inspector will need it: a reference, never a copy or a read of a stream. */
function capturedPayload(payload: unknown): CapturedPayload {
  if (payload === null || payload === undefined) return NO_PAYLOAD
  if (typeof payload === 'string') return { kind: 'text', text: payload }
  if (payload instanceof JsonChunksBody) return { kind: 'chunks', chunks: payload.chunks }
  if (payload instanceof Uint8Array) return { kind: 'bytes', bytes: payload }
  if (typeof (payload as { pipe?: unknown }).pipe === 'function') return { kind: 'stream' }
  return NO_PAYLOAD
}

/** Who answered a request, and what the upstream said when it was forwarded. */
function answerOf(request: FastifyRequest, reply: FastifyReply): Pick<RequestCapture, 'answeredBy' | 'upstream'> {
  const source = reply.getHeader('x-emulator-source')
  // Replay answers before forwarding (docs/upstream.md): a recorded answer never reached the upstream.
  if (source === 'recording') return { answeredBy: 'recording', upstream: null }
  const route = request.upstreamRoute
  if (!route) return { answeredBy: 'emulator', upstream: null }
  return { answeredBy: source === 'upstream' ? 'upstream' : 'emulator', upstream: route.answer }
}
