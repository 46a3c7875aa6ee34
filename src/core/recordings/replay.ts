import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'

import { TOKEN_ISSUER } from '../../shared/contract/licensing'
import type { Clock } from '../clock/clock'
import type { JwtSigner } from '../crypto/jwt-signer'
import { DomainError } from '../errors/domain-error'
import type { Fingerprinter } from './fingerprints'
import { recordedRequest } from './recorded-exchange'
import type { RequestToRecord } from './recorded-exchange'
import type { RecordedBody, RecordedExchange, RecordedHeaders, RecordingDocument } from './recording-format'

export interface ReplaySettings {
  strict: boolean
  resign: boolean
}

/** A recorded answer ready to send. */
export interface ReplayAnswer {
  status: number
  headers: RecordedHeaders
  /** The body's bytes; a body kept as size and digest only streams that many zero bytes. */
  body: Buffer | Readable
  /** The recorded exchange answered (its position in the recording). */
  seq: number
  /** How many license tokens were re-signed with the emulator's key. */
  resigned: number
}

type Request = RecordedExchange['request']

/** The parts of a request replay compares, each under the name a mismatch reports. */
function comparableFields(request: Request, credentialHeaders: ReadonlySet<string>): Map<string, string> {
  const fields = new Map<string, string>()
  fields.set('method', request.method)
  fields.set('path', request.path)
  const query = new URLSearchParams(request.query)
  for (const key of [...new Set(query.keys())].sort()) fields.set(`query.${key}`, JSON.stringify(query.getAll(key)))
  for (const [name, value] of Object.entries(request.headers)) {
    // Credentials (compared by fingerprint) and the App ID say whose call it is; other headers do not change the answer.
    if (credentialHeaders.has(name) || name === 'authorization' || name.endsWith('-app-id'))
      fields.set(`header.${name}`, JSON.stringify(value))
  }
  addBodyFields(fields, 'body', request.body)
  // A nonce is fresh on every call by design (docs/api.md): matched on, a real plugin's call would
  // never meet its recording. With `resign` the answer echoes the live nonce instead.
  fields.delete('body.nonce')
  return fields
}

/** The request's `nonce` body field, when it sent one. */
function nonceOf(request: Request): string | null {
  const body = request.body
  if (body.kind !== 'json' || body.json === null || typeof body.json !== 'object' || Array.isArray(body.json))
    return null
  const nonce = (body.json as Record<string, unknown>).nonce
  return typeof nonce === 'string' ? nonce : null
}

function addBodyFields(fields: Map<string, string>, prefix: string, body: RecordedBody): void {
  if (body.kind === 'none') return
  if (body.kind === 'text') return void fields.set(prefix, JSON.stringify(body.text))
  if (body.kind === 'digest') return void fields.set(prefix, `${body.bytes}:${body.sha256 ?? ''}`)
  addJsonFields(fields, prefix, body.json)
}

function addJsonFields(fields: Map<string, string>, path: string, value: unknown): void {
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value)
    if (entries.length === 0) return void fields.set(path, Array.isArray(value) ? '[]' : '{}')
    for (const [key, item] of entries) addJsonFields(fields, `${path}.${key}`, item)
    return
  }
  fields.set(path, JSON.stringify(value))
}

/** The fields in which two requests differ, in reading order (method, path, query, headers, body). */
function differences(recorded: Map<string, string>, live: Map<string, string>): string[] {
  const names = [...new Set([...recorded.keys(), ...live.keys()])]
  const rank = (name: string) => ['method', 'path', 'query', 'header', 'body'].indexOf(name.split('.')[0] as string)
  return names
    .filter((name) => recorded.get(name) !== live.get(name))
    .sort((a, b) => rank(a) - rank(b) || (recorded.has(a) ? 0 : 1) - (recorded.has(b) ? 0 : 1))
}

function keyOf(fields: Map<string, string>): string {
  return JSON.stringify([...fields.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

interface Sequence {
  request: Request
  fields: Map<string, string>
  exchanges: RecordedExchange[]
  next: number
}

export interface ReplayOptions {
  document: RecordingDocument
  settings: ReplaySettings
  /**
   * The recording's fingerprinter for one live request: given its headers, it replaces that
   * request's credentials wherever the request repeats them (its path, query or body), as the
   * recording did, whatever their shape.
   */
  fingerprintsFor: (requestHeaders: RequestToRecord['requestHeaders']) => Fingerprinter
  credentialHeaders: ReadonlySet<string>
  clock: Clock
  /** Signs license tokens with the emulator's key (used with `resign`). */
  signLicenseToken: JwtSigner
}

/**
 * A recording in force (docs/upstream.md): a live request is fingerprinted with the recording's
 * salt and compared by method, path, query, credentials and body as JSON; identical recorded
 * requests form a sequence answered in order, the last repeating.
 */
export function createReplay(options: ReplayOptions) {
  const { document, settings, fingerprintsFor, credentialHeaders } = options
  const sequences = new Map<string, Sequence>()
  for (const exchange of document.exchanges) {
    const fields = comparableFields(exchange.request, credentialHeaders)
    const key = keyOf(fields)
    const sequence = sequences.get(key)
    if (sequence) sequence.exchanges.push(exchange)
    else sequences.set(key, { request: exchange.request, fields, exchanges: [exchange], next: 0 })
  }

  const bodyBytes = async (
    exchange: RecordedExchange,
    liveNonce: string | null
  ): Promise<{ body: Buffer | Readable; resigned: number }> => {
    const body = exchange.response.body
    if (body.kind === 'none') return { body: Buffer.alloc(0), resigned: 0 }
    if (body.kind === 'text') return { body: Buffer.from(body.text, 'utf8'), resigned: 0 }
    // Only the size and digest were kept: the same number of bytes stands in (docs/upstream.md).
    if (body.kind === 'digest') return { body: zeroBytes(body.bytes), resigned: 0 }
    // Re-signed answers echo the live call's nonce, as the platform would have (the plugin checks it).
    const echo = settings.resign && liveNonce !== null
    const json =
      echo && body.json !== null && typeof body.json === 'object' && !Array.isArray(body.json) && 'nonce' in body.json
        ? { ...(body.json as Record<string, unknown>), nonce: liveNonce }
        : body.json
    let text = JSON.stringify(json)
    let resigned = 0
    if (settings.resign) {
      for (const token of exchange.licenseTokens ?? []) {
        if (!text.includes(token.fingerprint)) continue
        const claims = echo && 'nonce' in token.claims ? { ...token.claims, nonce: liveNonce } : token.claims
        text = text.split(token.fingerprint).join(await resign(claims))
        resigned += 1
      }
    }
    return { body: Buffer.from(text, 'utf8'), resigned }
  }

  const resign = (claims: Record<string, unknown>): Promise<string> => {
    const nowS = Math.floor(options.clock.now().getTime() / 1000)
    const { iss: _iss, aud, sub, jti: _jti, iat, nbf: _nbf, exp, ...rest } = claims
    const lifetime = typeof exp === 'number' && typeof iat === 'number' && exp > iat ? exp - iat : 24 * 60 * 60
    return options.signLicenseToken(rest, {
      iss: TOKEN_ISSUER,
      aud: typeof aud === 'string' ? aud : Array.isArray(aud) ? String(aud[0]) : '',
      sub: typeof sub === 'string' ? sub : '',
      jti: randomUUID(),
      iat: nowS,
      nbf: nowS,
      exp: nowS + lifetime
    })
  }

  return {
    settings,
    document,
    /**
     * The recorded answer for a live request, or null when none matches and the emulator is to
     * answer; in strict mode a miss throws NO_RECORDED_MATCH naming the closest recorded request.
     */
    async answer(live: RequestToRecord): Promise<ReplayAnswer | null> {
      const request = recordedRequest(live, fingerprintsFor(live.requestHeaders))
      const fields = comparableFields(request, credentialHeaders)
      const sequence = sequences.get(keyOf(fields))
      if (!sequence) {
        if (settings.strict) throw noMatch(fields)
        return null
      }
      const exchange = sequence.exchanges[Math.min(sequence.next, sequence.exchanges.length - 1)] as RecordedExchange
      sequence.next += 1
      const { body, resigned } = await bodyBytes(exchange, nonceOf(request))
      return { status: exchange.response.status, headers: exchange.response.headers, body, seq: exchange.seq, resigned }
    },
    /** Every sequence back to its first answer. */
    rewind(): void {
      for (const sequence of sequences.values()) sequence.next = 0
    }
  }

  function noMatch(live: Map<string, string>): DomainError {
    let best: { sequence: Sequence; diff: string[]; score: number } | null = null
    for (const sequence of sequences.values()) {
      const diff = differences(sequence.fields, live)
      // A different path or method is further away than any number of differing fields.
      const score = diff.reduce((sum, name) => sum + (name === 'path' ? 1000 : name === 'method' ? 100 : 1), 0)
      if (best === null || score < best.score) best = { sequence, diff, score }
    }
    if (best === null) {
      return new DomainError('NO_RECORDED_MATCH', 'The recording in force holds no request at all.', {
        details: { closest: null, differs: null }
      })
    }
    const { request } = best.sequence
    const closest = { method: request.method, path: request.path, query: request.query }
    const differs = best.diff[0] ?? null
    return new DomainError(
      'NO_RECORDED_MATCH',
      `No recorded request matches; the closest is ${request.method} ${request.path}${request.query ? `?${request.query}` : ''}, which differs first in ${differs}.`,
      { details: { closest, differs } }
    )
  }
}

export type Replay = ReturnType<typeof createReplay>

/** `count` zero bytes as a stream of small chunks: a large download's stand-in is never held whole. */
function zeroBytes(count: number): Readable {
  const chunk = Buffer.alloc(64 * 1024)
  return Readable.from(
    (function* () {
      for (let left = count; left > 0; left -= chunk.length)
        yield left >= chunk.length ? chunk : chunk.subarray(0, left)
    })()
  )
}
