import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

import type { FaultHit, FaultRule, FieldReader } from '../../core/faults/fault-rules'
import { normalizePath } from '../../core/faults/route-pattern'
import { tricklePlan, trickleStream } from '../../core/faults/trickle'
import { errorStatus } from '../../shared/contract/error-codes'
import { FAULT_DEFAULTS } from '../../shared/contract/faults'
import { TransportError } from '../errors/transport-codes'
import { isServiceRequest } from '../inspector/surfaces'
import type { ErrorBody } from './error-handling'

declare module 'fastify' {
  interface FastifyRequest {
    /** The fault rule that fired for this request, or null (for the request inspector). */
    fault: FaultHit | null
    /** Set when a rule matching a body field must decide once the body is parsed. */
    faultPath: string | null
  }
}

/**
 * Fault injection for the service API (docs/api.md section 6). The rule is chosen once, in
 * onRequest: before the body is read and before authentication, as a network fault would be.
 * `trickle` is the one kind that acts on the way out (onSend), on the real response.
 */
export const faultInjection = fp(
  async (app) => {
    const { faults } = app.core
    app.decorateRequest('fault', null)
    app.decorateRequest('faultPath', null)

    // Responses a fault is holding back (a wait, or a trickle). Closing the server drops them:
    // close() waits for open requests, and a ten-minute latency rule must not hold up a quit.
    const held = new Set<FastifyReply>()
    app.addHook('preClose', async () => {
      for (const reply of held) reply.raw.destroy()
    })

    app.addHook('onRequest', async (request, reply) => {
      if (!faults.any()) return
      const path = normalizePath(request.url)
      // The control plane, /openapi.json and the UI are never faulted, so a `**` rule cannot lock
      // QA out of the very routes that remove it. The matched route is checked as well as the
      // path: an escaped path (`/%5Femulator/...`) reaches the same route.
      const route = request.routeOptions.url
      if (!isServiceRequest(path) || (route !== undefined && !isServiceRequest(route))) return
      if (faults.waitsForBody(request.method, path)) {
        const forwarded = request.upstreamRoute
        if (forwarded === null) {
          request.faultPath = path
          return
        }
        // A forwarded body is never parsed (it streams to the upstream), so the rule decides here,
        // on the body read whole; the upstream then gets these very bytes.
        const limit = app.initialConfig.bodyLimit ?? DEFAULT_INSPECTED_BODY
        const read = await readBody(request, limit)
        if (read !== null && read.totalBytes > limit) {
          throw new TransportError(
            'PAYLOAD_TOO_LARGE',
            'The request body is larger than this server reads to match a fault rule against it.'
          )
        }
        if (read !== null) forwarded.body = read.bytes
        const hit = faults.pick(request.method, path, fieldReader(request))
        if (hit) return act(hit, request, reply)
        return
      }
      const hit = faults.pick(request.method, path)
      if (hit) return act(hit, request, reply)
    })

    // A rule that matches a body field decides once the body is parsed (and before the route
    // validates it, so a plugin's bad body is faulted like a good one).
    app.addHook('preValidation', async (request, reply) => {
      if (request.faultPath === null) return
      const hit = faults.pick(request.method, request.faultPath, fieldReader(request))
      request.faultPath = null
      if (hit) return act(hit, request, reply)
    })

    async function act(hit: FaultHit, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      // An `after` rule acts on the upstream's answer (docs/upstream.md): the forwarding applies it
      // once the upstream has answered. With no answer to act on (a request the emulator answers
      // itself, an upstream that failed, a client gone first) it did not fire: its use is given back.
      if (hit.rule.stage === 'after') {
        const route = request.upstreamRoute
        if (route === null) {
          faults.giveBack(hit)
          return
        }
        request.fault = hit
        // Given back before the inspector records the exchange, so its entry names no rule: when
        // the emulator answers itself (onSend below), or the client leaves first (this listener
        // runs before the recorder's).
        reply.raw.prependOnceListener('close', () => {
          if (route.answer === null) releaseAfterFault(request)
        })
        return
      }
      request.fault = hit
      const { rule, delayMs } = hit
      if (delayMs > 0) {
        held.add(reply)
        reply.raw.once('close', () => held.delete(reply))
      }
      if (rule.kind === 'trickle') return

      // The wait is the request still on its way: if the client gives up meanwhile, the service
      // never sees it (a trickle rule is the one for "handled, but the answer never arrived").
      if (delayMs > 0 && !(await waitWhileConnected(reply, delayMs))) {
        reply.hijack()
        return
      }
      if (rule.kind === 'latency') return
      if ((rule.kind === 'error' || rule.kind === 'rate_limit') && request.inspectorCapture) {
        await readBody(request, app.initialConfig.bodyLimit ?? DEFAULT_INSPECTED_BODY)
      }
      return answerFault(request, reply, rule)
    }

    // In callback form: it runs on every answer, and nearly always has nothing to do.
    app.addHook(
      'onSend',
      (
        request: FastifyRequest,
        reply: FastifyReply,
        payload: unknown,
        done: (error: null, payload: unknown) => void
      ) => {
        // An answer of the emulator's own with no upstream answer to act on (a replay): an `after` rule did not fire.
        if (request.fault?.rule.stage === 'after' && request.upstreamRoute?.answer === null) releaseAfterFault(request)
        done(
          null,
          request.fault?.rule.kind === 'trickle' ? trickled(request.fault.delayMs, request, reply, payload) : payload
        )
      }
    )
  },
  { name: 'fault-injection', dependencies: ['emulator-context'] }
)

/**
 * An `after` rule that found no upstream answer to act on (the upstream failed, or the request
 * looped back): it did not fire, so it is not the request's fault and its use is given back
 * (`times`). Called before the emulator's own answer is sent; a second call does nothing.
 */
export function releaseAfterFault(request: FastifyRequest): void {
  const hit = request.fault
  if (hit === null || hit.rule.stage !== 'after') return
  request.fault = null
  request.server.core.faults.giveBack(hit)
}

/**
 * What a rule of kind error, rate_limit or offline answers (a latency or trickle rule answers
 * nothing of its own): before the service (or the upstream) acts, or after the upstream did.
 */
export function answerFault(request: FastifyRequest, reply: FastifyReply, rule: FaultRule): FastifyReply | undefined {
  switch (rule.kind) {
    case 'latency':
    case 'trickle':
      return undefined
    case 'error':
      return sendFault(reply, rule.status ?? FAULT_DEFAULTS.errorStatus, {
        ok: false,
        error: 'FAULT_INJECTED',
        message: `Injected fault (rule ${rule.id}): the service failed with status ${rule.status ?? FAULT_DEFAULTS.errorStatus}.`
      })
    case 'rate_limit': {
      const retryAfter = rule.retryAfterS ?? FAULT_DEFAULTS.retryAfterS
      reply.header('retry-after', String(retryAfter))
      return sendFault(reply, errorStatus('RATE_LIMITED'), {
        ok: false,
        error: 'RATE_LIMITED',
        message: `Too many requests (injected fault, rule ${rule.id}); retry after ${retryAfter} s.`,
        retryAfter
      })
    }
    case 'offline':
      // No status line, no headers: the client sees the connection drop, as with a dead link.
      reply.hijack()
      request.raw.socket.destroy()
      return undefined
  }
}

/** The answer spread over `spreadMs`, as a trickle rule sends it. */
function trickled(spreadMs: number, request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  // HEAD has no body to slow down; Fastify strips it after this hook.
  if (request.method === 'HEAD') return payload
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload
    if (body.length === 0) return payload
    // Fastify sets Content-Length only for a string or Buffer payload: kept here, as a slow link would.
    reply.header('content-length', String(body.length))
    return trickleStream(body, tricklePlan(body.length, spreadMs))
  }
  if (isByteStream(payload)) {
    const declared = Number(reply.getHeader('content-length'))
    return trickleStream(payload, tricklePlan(Number.isFinite(declared) && declared > 0 ? declared : null, spreadMs))
  }
  // null, or a web stream: sent as is.
  return payload
}

const DEFAULT_INSPECTED_BODY = 1024 * 1024

/**
 * A field of the JSON body as the client sent it (a dotted path reaches inside), else the query
 * parameter of that name, as text. Read from what was sent, before unknown names are dropped
 * (tolerant-requests.ts), so a rule can match any field a plugin sends.
 */
function fieldReader(request: FastifyRequest): FieldReader {
  return (field) => {
    let value: unknown = request.sentBody ? request.sentBody.value : request.body
    for (const name of field.split('.')) {
      value =
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? (value as Record<string, unknown>)[name]
          : undefined
    }
    if (value === undefined || value === null) {
      const query = request.url.indexOf('?')
      value = query === -1 ? undefined : (new URLSearchParams(request.url.slice(query + 1)).get(field) ?? undefined)
    }
    if (typeof value === 'string') return value
    if (typeof value === 'number' || typeof value === 'boolean') return String(value)
    return undefined
  }
}

/**
 * The body, read before any route parses it: for the request inspector when a fault answers in the
 * route's place, and for a rule's match on a forwarded request. Keeps at most `limit` bytes
 * (draining the rest; `totalBytes` counts all), puts the text where the JSON parser would have,
 * and parses JSON so that redaction and the match see its fields. Null: the request has no body.
 */
async function readBody(request: FastifyRequest, limit: number): Promise<{ bytes: Buffer; totalBytes: number } | null> {
  const raw = request.raw
  const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0
  if (!hasBody || raw.readableEnded) return null
  const chunks: Buffer[] = []
  let total = 0
  try {
    for await (const chunk of raw) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
      if (total < limit) chunks.push(bytes.subarray(0, limit - total))
      total += bytes.length
    }
  } catch {
    // The client went away mid-body: record what arrived.
  }
  const bytes = Buffer.concat(chunks)
  const text = bytes.toString('utf8')
  request.rawBody = text
  if (/^application\/(?:[\w.+-]+\+)?json\b/i.test(String(raw.headers['content-type'] ?? ''))) {
    try {
      request.body = JSON.parse(text)
    } catch {
      // Not JSON after all: the text alone is recorded.
    }
  }
  return { bytes, totalBytes: total }
}

function sendFault(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(body)
}

/** Waits `ms`; false as soon as the client has closed the connection. */
export async function waitWhileConnected(reply: FastifyReply, ms: number): Promise<boolean> {
  const gone = new AbortController()
  const onClose = () => gone.abort()
  reply.raw.once('close', onClose)
  try {
    await sleep(ms, undefined, { signal: gone.signal })
    return !reply.raw.destroyed && reply.raw.socket?.destroyed !== true
  } catch {
    return false
  } finally {
    reply.raw.off('close', onClose)
  }
}

/** A Node readable stream (what `reply.send(stream)` takes), read here as an async iterable. */
function isByteStream(
  payload: unknown
): payload is AsyncIterable<Buffer | Uint8Array | string> & NodeJS.ReadableStream {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as { pipe?: unknown }).pipe === 'function' &&
    Symbol.asyncIterator in payload
  )
}
