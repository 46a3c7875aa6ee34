import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Compile } from 'typebox/compile'

import { createJwtSigner } from '../../core/crypto/jwt-signer'
import { DomainError } from '../../core/errors/domain-error'
import type { RecordingDocument } from '../../core/recordings/recording-format'
import { createReplay } from '../../core/recordings/replay'
import type { Replay, ReplaySettings } from '../../core/recordings/replay'
import { RecordingDocumentSchema } from '../../shared/schemas/recordings'
import { credentialHeaderNames } from '../auth/credential-headers'
import { TransportError } from '../errors/transport-codes'
import { nodeHttp } from '../http/node-http'
import { isServiceRequest } from '../inspector/surfaces'
import type { ReplayControl, ReplayState } from './replay-control'

const compileDocumentCheck = () => Compile(RecordingDocumentSchema)
let compiled: ReturnType<typeof compileDocumentCheck> | null = null
/** Compiled on first use: most runs never replay. */
const checkDocument = () => (compiled ??= compileDocumentCheck())

/** Headers a replayed answer never copies from the recording: the replaying server frames its own answer. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding'])

/**
 * The routes that publish the keys license tokens are verified with. A re-signed token carries the
 * emulator's key, so while re-signing these are the emulator's to answer with its own keys: the
 * recorded (platform's) keys, or the upstream's, would fail verification of every re-signed token.
 */
const KEY_ROUTES: ReadonlySet<string> = new Set(['/.well-known/jwks.json', '/api/license/v1/public-key'])

/** The credential header names that are fingerprinted whole (they follow the header prefix in force). */
export function credentialHeadersFor(prefix: string): ReadonlySet<string> {
  const names = credentialHeaderNames(prefix)
  return new Set([names.pluginKey, names.pluginSecret, names.apiKey, 'x-emulator-token'])
}

export interface ReplayPluginOptions {
  /** `serve --replay FILE [--replay-strict]`: a recording in force from the start. */
  initial?: { document: unknown; strict: boolean; resign?: boolean } | undefined
}

/**
 * Replay (docs/upstream.md, "Record, replay, reproduce"): registered before forwarding and the
 * routes, it answers a service request that matches the recording in force with the recorded
 * answer (`x-emulator-source: recording`); an unmatched one goes on to the emulator (or the
 * upstream), or in strict mode is answered 404 NO_RECORDED_MATCH. While re-signing, the key routes
 * (KEY_ROUTES) are always answered by the emulator itself. It also hands the core's
 * recordings what only the server knows (credential header names, the admin token).
 */
export const replayPlugin = fp<ReplayPluginOptions>(
  async (app, options) => {
    const { recordings } = app.core
    recordings.protect({
      fingerprintRules: () => ({ credentialHeaders: credentialHeadersFor(app.settings.headerPrefix) }),
      secretLiterals: [app.settings.adminToken]
    })
    const signLicenseToken = createJwtSigner(app.core.keys.get('license'), 'license+jwt')
    let current: Replay | null = null

    const state = (): ReplayState => ({
      active: current !== null,
      recording: current
        ? { id: current.document.id, name: current.document.name, exchanges: current.document.exchanges.length }
        : null,
      strict: current?.settings.strict ?? false,
      resign: current?.settings.resign ?? false
    })

    const control: ReplayControl = {
      state,
      set(document: RecordingDocument | null, settings: ReplaySettings) {
        if (document === null) {
          current = null
          return state()
        }
        if (!checkDocument().Check(document)) {
          const first = [...checkDocument().Errors(document)][0]
          throw new DomainError(
            'VALIDATION_ERROR',
            'The recording is not a recording document (resources/recording.schema.json).',
            {
              details: {
                details: [{ location: 'body', path: first?.instancePath ?? '', problem: first?.message ?? 'not valid' }]
              }
            }
          )
        }
        const where = recordings.firstSecretIn(document)
        if (where !== null) {
          throw new DomainError(
            'VALIDATION_ERROR',
            "The recording holds a value with a secret's shape; it is refused.",
            {
              details: { details: [{ location: 'body', path: where, problem: "a value with a secret's shape" }] }
            }
          )
        }
        current = createReplay({
          document,
          settings,
          fingerprintsFor: (requestHeaders) => recordings.fingerprinterFor(document.fingerprints.salt, requestHeaders),
          credentialHeaders: credentialHeadersFor(app.settings.headerPrefix),
          clock: app.core.clock,
          signLicenseToken
        })
        return state()
      }
    }
    app.decorate('replay', control)
    app.decorateRequest('replayBody', null)

    if (options.initial) {
      control.set(options.initial.document as RecordingDocument, {
        strict: options.initial.strict,
        resign: options.initial.resign ?? false
      })
    }

    const bodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const replay = current
      if (replay === null || !isServiceRequest(request.url)) return
      const route = request.routeOptions.url
      if (route !== undefined && !isServiceRequest(route)) return
      // Matched by route, not path, so a trailing slash or an escaped character cannot slip past.
      if (replay.settings.resign && route !== undefined && KEY_ROUTES.has(route)) {
        request.upstreamRoute = null
        return
      }
      const body = await readBody(request, bodyLimit)
      request.replayBody = body
      const queryStart = request.url.indexOf('?')
      const answer = await replay.answer({
        method: request.method,
        path: queryStart < 0 ? request.url : request.url.slice(0, queryStart),
        rawQuery: queryStart < 0 ? '' : request.url.slice(queryStart + 1),
        requestHeaders: request.headers,
        requestBody: body
      })
      if (answer === null) {
        // The body was read to match it: forwarding would find none left, so the emulator answers it.
        if (body !== null) request.upstreamRoute = null
        return
      }
      for (const [name, value] of Object.entries(answer.headers)) {
        if (!FRAMING_HEADERS.has(name) && sendable(name, value)) reply.header(name, value)
      }
      reply.header('x-emulator-source', 'recording')
      // The inspector shows which recorded exchange answered, and whether its license tokens were re-signed.
      reply.header(
        'x-emulator-replay',
        `seq=${answer.seq}${answer.resigned > 0 ? `; resigned=${answer.resigned}` : ''}`
      )
      return reply.code(answer.status).send(answer.body)
    })

    // A body replay read (and did not answer) is handed to the parser as it arrived.
    app.addHook('preParsing', async (request, _reply, payload) =>
      request.replayBody !== null ? Readable.from([request.replayBody]) : payload
    )
  },
  { name: 'replay', dependencies: ['emulator-context'] }
)

/**
 * The request's body (null when it has none), read before routing so it can be matched; the
 * inspector sees it where the JSON parser would have put it.
 */
async function readBody(request: FastifyRequest, limit: number): Promise<Buffer | null> {
  const raw = request.raw
  const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0
  if (!hasBody || raw.readableEnded) return null
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of raw) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))
    size += bytes.length
    if (size > limit) {
      throw new TransportError('PAYLOAD_TOO_LARGE', 'The request body is larger than this server accepts.')
    }
    chunks.push(bytes)
  }
  const body = Buffer.concat(chunks)
  request.rawBody = body.toString('utf8')
  if (/^application\/(?:[\w.+-]+\+)?json\b/i.test(String(raw.headers['content-type'] ?? ''))) {
    try {
      request.body = JSON.parse(request.rawBody)
    } catch {
      // Not JSON after all: the text alone is recorded.
    }
  }
  return body
}

/** Whether Node can send this header: a hand-edited recording may hold a name or value it cannot (dropped, not a 500). */
function sendable(name: string, value: string | readonly string[]): boolean {
  try {
    nodeHttp.validateHeaderName(name)
    for (const one of typeof value === 'string' ? [value] : value) nodeHttp.validateHeaderValue(name, one)
    return true
  } catch {
    return false
  }
}
