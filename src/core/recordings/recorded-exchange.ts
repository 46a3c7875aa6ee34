import { createHash } from 'node:crypto'

import type { ForwardedExchange } from '../upstream/forwarded-exchange'
import type { Fingerprinter } from './fingerprints'
import type { RecordedBody, RecordedExchange, RecordedHeaders } from './recording-format'

/** Bodies larger than this (or binary) are kept as size and SHA-256 only: a download is evidence of its bytes, not a copy. */
export const LARGE_BODY_BYTES = 256 * 1024

/** Headers that describe one connection, not the exchange (RFC 9110 section 7.6.1), and those the replaying server sets itself. */
const DROPPED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'via',
  'content-length',
  // The body is kept decompressed: an encoding header would no longer be true of it.
  'content-encoding'
])

function headerText(value: string | readonly string[] | undefined): string | null {
  if (value === undefined) return null
  return typeof value === 'string' ? value : (value[0] ?? null)
}

function isTextual(contentType: string | null): boolean {
  return contentType === null || /json|text\/|xml|x-www-form-urlencoded|javascript/i.test(contentType)
}

function bodyOf(
  bytes: Buffer | null,
  truncated: boolean,
  contentType: string | null,
  declaredLength: string | null,
  fingerprints: Fingerprinter
): RecordedBody {
  if (bytes === null || (bytes.length === 0 && !truncated)) return { kind: 'none' }
  if (truncated) {
    const declared = Number(declaredLength)
    return {
      kind: 'digest',
      bytes: Number.isFinite(declared) && declared > 0 ? declared : bytes.length,
      sha256: null,
      note: `Only the first ${bytes.length} bytes reached the recording; its digest is unknown.`
    }
  }
  if (bytes.length > LARGE_BODY_BYTES || !isTextual(contentType) || bytes.includes(0)) {
    return { kind: 'digest', bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
  }
  const text = bytes.toString('utf8')
  // JSON under another content type (text/plain) is read as JSON too, so its secret-named
  // fields are fingerprinted whole, whatever their values look like.
  if (contentType === null || /json/i.test(contentType) || /^\s*[[{]/.test(text)) {
    try {
      return { kind: 'json', json: fingerprints.json(JSON.parse(text)) }
    } catch {
      // Not JSON after all: kept as text.
    }
  }
  // A form body's secret-named fields (`plugin_secret=...`) are fingerprinted as a query's are.
  if (contentType !== null && /x-www-form-urlencoded/i.test(contentType)) {
    return { kind: 'text', text: fingerprints.query(text) }
  }
  return { kind: 'text', text: fingerprints.text(text) }
}

function recordedHeaders(
  source: Readonly<Record<string, string | readonly string[] | undefined>>,
  fingerprints: Fingerprinter
): RecordedHeaders {
  const kept: Record<string, string | readonly string[] | undefined> = {}
  for (const [name, value] of Object.entries(source)) if (!DROPPED_HEADERS.has(name.toLowerCase())) kept[name] = value
  return fingerprints.headers(kept)
}

/** One forwarded exchange as a recording keeps it: secrets fingerprinted, bodies decompressed, connection headers dropped. */
export function toRecordedExchange(
  exchange: ForwardedExchange,
  seq: number,
  fingerprints: Fingerprinter
): RecordedExchange {
  const responseType = headerText(exchange.responseHeaders['content-type'])
  const recorded: RecordedExchange = {
    seq,
    startedAt: exchange.startedAt,
    durationMs: Math.round(exchange.durationMs * 10) / 10,
    request: recordedRequest(exchange, fingerprints),
    response: {
      status: exchange.status,
      headers: recordedHeaders(exchange.responseHeaders, fingerprints),
      body: bodyOf(
        exchange.responseBody,
        exchange.responseBodyTruncated,
        responseType,
        headerText(exchange.responseHeaders['content-length']),
        fingerprints
      )
    }
  }
  const tokens = fingerprints.takeLicenseTokens()
  if (tokens.length > 0) recorded.licenseTokens = tokens
  return recorded
}

/** What a request looks like to a recording: the recorded form, and the form replay matches a live request in. */
export interface RequestToRecord {
  method: string
  path: string
  rawQuery: string
  requestHeaders: Readonly<Record<string, string | readonly string[] | undefined>>
  requestBody: Buffer | null
}

export function recordedRequest(request: RequestToRecord, fingerprints: Fingerprinter): RecordedExchange['request'] {
  return {
    method: request.method.toUpperCase(),
    path: fingerprints.text(request.path),
    query: fingerprints.query(request.rawQuery),
    headers: recordedHeaders(request.requestHeaders, fingerprints),
    body: bodyOf(request.requestBody, false, headerText(request.requestHeaders['content-type']), null, fingerprints)
  }
}
