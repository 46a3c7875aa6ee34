import { SOURCE_HEADER } from '../../shared/contract/inspector'
import type { AnsweredBy, AuthKind, RequestSource, Surface } from '../../shared/contract/inspector'
import type { FaultRule } from '../faults/fault-rules'
import { credentialValuesOf, literalReplacements, replaceLiterals } from '../redaction/credential-values'
import type { LiteralReplacement } from '../redaction/credential-values'
import {
  HIDDEN,
  MAX_REDACTION_DEPTH,
  previewOf,
  redactHeaders,
  redactJson,
  redactJsonText,
  redactText,
  redactUrl,
  TOO_DEEP
} from '../redaction/redact'
import type { HeaderRedaction } from '../redaction/redact'
import { licenseTokensIn } from './license-tokens'
import type {
  BodyInfo,
  CapturedPayload,
  CaptureRedaction,
  DecodedLicenseToken,
  FaultSummary,
  RecordedRequest,
  RecordedResponse,
  RequestCapture
} from './types'

/** Bodies are kept up to this many characters (after redaction); the rest is cut. */
export const MAX_BODY_CHARS = 16 * 1024
/** How much of a JSON body too long to keep is redacted (as text) before it is cut to MAX_BODY_CHARS. */
const REDACTED_JSON_CHARS = MAX_BODY_CHARS + 1024

/** An exchange redacted and ready to store: nothing in it is a usable credential. */
export interface PreparedEntry {
  surface: Surface
  method: string
  path: string
  status: number
  durationMs: number
  authKind: AuthKind
  /** The product named by the route, body or query, else the one whose App ID the request sent. */
  productId: string | null
  source: RequestSource
  errorCode: string | null
  fault: FaultSummary | null
  answeredBy: AnsweredBy
  upstreamStatus: number | null
  upstreamMs: number | null
  requestJson: string
  responseJson: string
}

/**
 * Redacts one capture. This is the only way a capture becomes storable: headers by name
 * (Authorization, cookies, the product credential headers, the admin token header), query
 * parameters and body fields by name (SECRET_FIELD_NAMES), secret-looking text anywhere,
 * the admin token as a literal value wherever it turns up, and the values the request's
 * credential headers carried wherever the exchange repeats them (an upstream echoing them back).
 */
export function prepareEntry(capture: RequestCapture): PreparedEntry {
  const { redaction } = capture
  const echoed = echoedCredentials(capture, redaction)
  const hide = (text: string) => replaceLiterals(hideValues(text, redaction.hiddenValues), echoed.plain)
  // Serialised entries: each credential is looked for as JSON escapes it, and previewed alike.
  const hideJson = (text: string) => replaceLiterals(hideValues(text, redaction.hiddenValues), echoed.json)
  const path = hide(redactUrl(capture.url))
  const headerRules = headerRulesOf(redaction)

  const request: RecordedRequest = {
    headers: redactHeaders(capture.requestHeaders, headerRules),
    query: queryOf(path),
    ...requestBodyOf(capture),
    ...(capture.warnings && capture.warnings.length > 0
      ? { warnings: capture.warnings.slice(0, 50).map((warning) => hide(redactText(warning))) }
      : {})
  }
  const response: RecordedResponse = {
    headers: redactHeaders(capture.responseHeaders, headerRules),
    ...responseBodyOf(capture)
  }
  const errorCode = errorCodeOf(response.body)
  return {
    surface: capture.surface,
    method: capture.method.toUpperCase(),
    path,
    status: capture.status,
    durationMs: Math.round(capture.durationMs * 10) / 10,
    authKind: capture.authKind,
    productId: productIdOf(capture, queryOf(capture.url), hide) ?? capture.appIdProductId,
    source: sourceOf(capture.requestHeaders[SOURCE_HEADER]),
    // A code is shown as it is or not at all (a preview would not be a code).
    errorCode: errorCode !== null && hide(errorCode) !== errorCode ? null : errorCode,
    fault: capture.fault ?? null,
    ...answerOf(capture),
    requestJson: hideJson(JSON.stringify(request)),
    responseJson: hideJson(JSON.stringify(response))
  }
}

const NOTHING_ECHOED = { plain: [], json: [] } as const

/**
 * The request's credential header values (and Authorization's), each paired with its preview:
 * the header shows that preview, so an echo of the value shows the same one. Values with a
 * secret's shape are previewed by it wherever they are; looking for them again would cost every
 * request of the emulator's own (measured on a validate entry of ~16 us: +3.5 us, +1 us without).
 */
function echoedCredentials(
  capture: RequestCapture,
  redaction: CaptureRedaction
): { readonly plain: readonly LiteralReplacement[]; readonly json: readonly LiteralReplacement[] } {
  const values = credentialValuesOf(capture.requestHeaders, redaction.credentialHeaders, { exceptShaped: true })
  return values.length === 0 ? NOTHING_ECHOED : literalReplacements(values, (credential) => previewOf(credential.value))
}

/** The header rules of a server's redaction, made once per redaction (it changes with the settings only). */
const headerRulesByRedaction = new WeakMap<CaptureRedaction, HeaderRedaction>()

function headerRulesOf(redaction: CaptureRedaction): HeaderRedaction {
  let rules = headerRulesByRedaction.get(redaction)
  if (!rules) {
    rules = {
      previewed: new Set(redaction.credentialHeaders),
      hidden: new Set(['x-emulator-token', ...redaction.hiddenHeaders])
    }
    headerRulesByRedaction.set(redaction, rules)
  }
  return rules
}

/**
 * What is stored when a capture cannot be prepared whole: the exchange still appears, with what
 * is certain (method, redacted path, status, timing) and a note instead of headers and bodies.
 */
export function fallbackEntry(capture: RequestCapture): PreparedEntry {
  const path = replaceLiterals(
    hideValues(redactUrl(capture.url), capture.redaction.hiddenValues),
    echoedCredentials(capture, capture.redaction).plain
  )
  const note = 'This exchange could not be recorded in full; its headers and bodies are left out.'
  const empty = { headers: {}, body: null, bodyInfo: { kind: 'none', bytes: 0, truncated: true, note } }
  return {
    surface: capture.surface,
    method: capture.method.toUpperCase(),
    path,
    status: capture.status,
    durationMs: Math.round(capture.durationMs * 10) / 10,
    authKind: 'none',
    productId: null,
    source: sourceOf(capture.requestHeaders[SOURCE_HEADER]),
    errorCode: null,
    fault: capture.fault ?? null,
    ...answerOf(capture),
    requestJson: JSON.stringify({ ...empty, query: {} }),
    responseJson: JSON.stringify(empty)
  }
}

/** The UI marks its own calls (`x-emulator-client: ui` or `tester`); everything else came from a client. */
function sourceOf(header: string | string[] | undefined): RequestSource {
  return header === 'ui' || header === 'tester' ? header : 'client'
}

const ERROR_CODE = /^[A-Z][A-Z0-9_]{1,63}$/

/**
 * The code a QA engineer tells answers apart by: the contract's `error` (a string, or an
 * object's `code`), or the `code` of a validate answer that is not valid (`TRIAL_EXPIRED`).
 */
export function errorCodeOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null
  const answer = body as { error?: unknown; code?: unknown; valid?: unknown }
  const error = answer.error
  const code =
    typeof error === 'string'
      ? error
      : error !== null && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string'
        ? (error as { code: string }).code
        : answer.valid === false && typeof answer.code === 'string'
          ? answer.code
          : null
  return code !== null && ERROR_CODE.test(code) ? code : null
}

/** The rule as it was when it fired, in a few words. */
export function faultOf(rule: FaultRule | null | undefined): FaultSummary | null {
  if (!rule) return null
  const target = `${rule.method ?? 'any method'} ${rule.route}`
  const detail =
    rule.kind === 'error'
      ? ` (status ${rule.status ?? 503})`
      : rule.kind === 'rate_limit'
        ? ` (retry after ${rule.retryAfterS ?? 1} s)`
        : rule.kind === 'latency' || rule.kind === 'trickle'
          ? ` (${rule.ms ?? 0} ms)`
          : ''
  // What narrows it, so the label states every condition the rule had when it fired.
  const chance = rule.probability < 1 ? `, ${Math.round(rule.probability * 1000) / 10}% of calls` : ''
  const only = rule.match ? `, only ${rule.match.field} = ${rule.match.equals}` : ''
  const left =
    rule.times !== null && rule.times !== undefined
      ? `, ${rule.times - 1} more call${rule.times === 2 ? '' : 's'} left`
      : ''
  const stage = rule.stage ?? 'before'
  return {
    ruleId: rule.id,
    kind: rule.kind,
    label: `${rule.kind} ${target}${detail}${stage === 'after' ? ' after the upstream' : ''}${chance}${only}${left}`,
    stage
  }
}

/** Who answered, and the upstream's part (docs/upstream.md). */
function answerOf(capture: RequestCapture): Pick<PreparedEntry, 'answeredBy' | 'upstreamStatus' | 'upstreamMs'> {
  return {
    answeredBy: capture.answeredBy ?? 'emulator',
    upstreamStatus: capture.upstream?.status ?? null,
    upstreamMs: capture.upstream ? Math.round(capture.upstream.durationMs * 10) / 10 : null
  }
}

/**
 * The literal forms (raw, JSON-escaped, URL-encoded) of each hidden value, worked out once per
 * list: a server's list lives as long as its settings, and every entry is searched four times.
 */
const hiddenFormsOf = new WeakMap<readonly string[], readonly string[]>()

function hiddenForms(values: readonly string[]): readonly string[] {
  let forms = hiddenFormsOf.get(values)
  if (!forms) {
    const found = new Set<string>()
    for (const value of values) {
      // A very short "secret" would wipe ordinary text; the admin token is never that short.
      if (value.length < 8) continue
      found.add(value).add(JSON.stringify(value).slice(1, -1)).add(encodeURIComponent(value))
    }
    forms = [...found]
    hiddenFormsOf.set(values, forms)
  }
  return forms
}

/** `text` with every literal `values` entry (raw, JSON-escaped or URL-encoded) replaced whole. */
export function hideValues(text: string, values: readonly string[]): string {
  let out = text
  for (const form of hiddenForms(values)) {
    // A search is cheaper than a split that finds nothing, which is nearly always the case.
    if (out.includes(form)) out = out.split(form).join(HIDDEN)
  }
  return out
}

/** A URL's query parameters, a repeated name as a list. */
export function queryOf(url: string): Record<string, string | string[]> {
  const start = url.indexOf('?')
  const out: Record<string, string | string[]> = {}
  if (start < 0) return out
  for (const [key, value] of new URLSearchParams(url.slice(start + 1))) {
    const existing = out[key]
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value]
  }
  return out
}

function productIdOf(
  capture: RequestCapture,
  query: Record<string, string | string[]>,
  hide: (text: string) => string
): string | null {
  const body = capture.requestBody.parsed
  const fromBody = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).productId : undefined
  const candidates = [capture.routeProductId, fromBody, query.productId]
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '')
      return hide(redactText(candidate.trim().slice(0, 200)))
  }
  return null
}

const HEAD_LIMIT_BYTES = 64 * 1024
/**
 * How much of a textual response body is held for redaction, in characters: a JSON body is read
 * whole up to MAX_BODY_CHARS and otherwise only to REDACTED_JSON_CHARS (textOrJson), other text is
 * redacted whole and cut to MAX_BODY_CHARS, so well past that is held. In bytes, four a character
 * at the most (UTF-8).
 */
const HELD_JSON_CHARS = REDACTED_JSON_CHARS + 1
const HELD_TEXT_CHARS = 64 * 1024
const NO_BYTES = new Uint8Array(0)

/**
 * Cuts a capture, in place, to what its redaction reads: bodies to well past what is kept (their
 * sizes noted), bytes copied out of any larger buffer they share (a clone would copy that whole
 * buffer). What the request log does before posting a capture to its worker thread: prepareEntry
 * makes the same entry of it as of the capture whole. Answers the same object.
 */
export function heldCapture(capture: RequestCapture): RequestCapture {
  const body = capture.requestBody
  if (body.parsed !== undefined && !(body.parsed instanceof Uint8Array)) {
    // A parsed body is shown from what was parsed: the text is not read again.
    if (body.head.length > 0) capture.requestBody = { parsed: body.parsed, head: [], receivedBytes: body.receivedBytes }
  } else if (body.head.length > 0) {
    capture.requestBody = { parsed: undefined, head: [headBytes(body.head)], receivedBytes: body.receivedBytes }
  }
  const { response } = capture
  if (response.kind === 'stream' || response.kind === 'none') return capture
  const contentType = headerText(capture.responseHeaders['content-type'])
  const chars = isJson(contentType) ? HELD_JSON_CHARS : HELD_TEXT_CHARS
  if (response.kind === 'text' && response.text.length <= chars) return capture
  const declared = Number(headerText(capture.responseHeaders['content-length']) ?? Number.NaN)
  capture.response = heldPayload(
    response,
    isTextual(contentType) ? chars : 0,
    Number.isFinite(declared) ? declared : null
  )
  return capture
}

function headBytes(head: readonly (Uint8Array | string)[]): Uint8Array {
  const bytes = Buffer.concat(head.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part)))
  return new Uint8Array(bytes.subarray(0, HEAD_LIMIT_BYTES))
}

/** `payload` cut to `chars` characters (0: a body shown by its size only), with its whole size noted. */
function heldPayload(payload: CapturedPayload, chars: number, declaredLength: number | null): CapturedPayload {
  const bytesHeld = 4 * chars
  switch (payload.kind) {
    case 'text':
      return {
        kind: 'text',
        text: payload.text.slice(0, chars),
        // The declared length is the same number without a pass over a body of megabytes.
        totalBytes: payload.totalBytes ?? declaredLength ?? Buffer.byteLength(payload.text)
      }
    case 'bytes': {
      const totalBytes = payload.totalBytes ?? payload.bytes.byteLength
      return { kind: 'bytes', bytes: chars === 0 ? NO_BYTES : ownCopy(payload.bytes, bytesHeld), totalBytes }
    }
    case 'chunks': {
      const totalBytes = payload.totalBytes ?? payload.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)
      const chunks: Uint8Array[] = []
      let held = 0
      for (const chunk of payload.chunks) {
        if (held >= bytesHeld) break
        const part = ownCopy(chunk, bytesHeld - held)
        chunks.push(part)
        held += part.byteLength
      }
      return { kind: 'chunks', chunks, totalBytes }
    }
    case 'stream':
    case 'none':
      return payload
  }
}

/** At most `limit` bytes of `bytes`, in a buffer of their own (a copy when they are a view into a larger one). */
function ownCopy(bytes: Uint8Array, limit: number): Uint8Array {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.byteLength <= limit) return bytes
  return new Uint8Array(bytes.subarray(0, limit))
}

/** A body as stored, with the license tokens it carried decoded (parsed JSON bodies only). */
interface ShownBody {
  body: unknown
  bodyInfo: BodyInfo
  licenseTokens?: DecodedLicenseToken[]
}

/** A parsed JSON body redacted, with its license tokens decoded from the value before redaction previewed them. */
function parsedJsonBody(parsed: unknown, bytes: number): ShownBody {
  const shown: ShownBody = jsonBody(redactJson(parsed), bytes)
  const tokens = licenseTokensIn(parsed)
  if (tokens.length > 0) shown.licenseTokens = tokens
  return shown
}

function requestBodyOf(capture: RequestCapture): ShownBody {
  const { parsed, receivedBytes } = capture.requestBody
  if (receivedBytes === 0) {
    const declared = Number(headerText(capture.requestHeaders['content-length']) ?? 0)
    if (!(declared > 0)) return { body: null, bodyInfo: { kind: 'none', bytes: 0, truncated: false } }
    // Refused before it was read (wrong media type, declared too large): only its size is known.
    return {
      body: null,
      bodyInfo: {
        kind: 'none',
        bytes: declared,
        truncated: false,
        note: `A body of ${declared} bytes was declared but not read.`
      }
    }
  }
  if (parsed !== undefined && !(parsed instanceof Uint8Array)) {
    return typeof parsed === 'string'
      ? textBody(redactText(parsed), receivedBytes)
      : parsedJsonBody(parsed, receivedBytes)
  }
  // Not parsed (malformed JSON, wrong media type, too large): show the bytes that arrived, at most
  // the first 64 KiB (bodies are shown cut to 16 KiB anyway). A parsed body never needs them.
  const head = Buffer.concat(
    capture.requestBody.head.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : part))
  ).subarray(0, HEAD_LIMIT_BYTES)
  const contentType = headerText(capture.requestHeaders['content-type'])
  if (!isTextual(contentType) && looksBinary(head)) return binaryBody(receivedBytes)
  const cut = receivedBytes > head.length
  let text = redactText(new TextDecoder().decode(head))
  // The tap cut mid-stream: whatever token-like run ends the text may be half a secret.
  if (cut) text = withoutTrailingTokenRun(text)
  const shown = textBody(text, receivedBytes)
  return cut
    ? { body: shown.body, bodyInfo: { ...shown.bodyInfo, truncated: true, note: truncationNote(receivedBytes) } }
    : shown
}

function responseBodyOf(capture: RequestCapture): ShownBody {
  const contentType = headerText(capture.responseHeaders['content-type'])
  const declaredLength = Number(headerText(capture.responseHeaders['content-length']) ?? Number.NaN)
  const shown = payloadBody(capture.response, contentType, Number.isFinite(declaredLength) ? declaredLength : null)
  if (!capture.aborted) return shown
  // What the server meant to send, marked as not (wholly) delivered.
  const note = 'The connection closed before the response was complete (client gone, or an offline fault).'
  return {
    ...shown,
    bodyInfo: { ...shown.bodyInfo, note: shown.bodyInfo.note ? `${note} ${shown.bodyInfo.note}` : note }
  }
}

function payloadBody(payload: CapturedPayload, contentType: string | null, declaredLength: number | null): ShownBody {
  switch (payload.kind) {
    case 'none':
      return { body: null, bodyInfo: { kind: 'none', bytes: declaredLength ?? 0, truncated: false } }
    case 'stream':
      return {
        body: null,
        bodyInfo: {
          kind: 'stream',
          bytes: declaredLength,
          truncated: false,
          note: `A streamed body${declaredLength !== null ? ` of ${declaredLength} bytes` : ''}; not recorded.`
        }
      }
    case 'bytes': {
      const bytes = payload.totalBytes ?? payload.bytes.byteLength
      if (!isTextual(contentType)) return binaryBody(bytes)
      return textOrJson(new TextDecoder().decode(payload.bytes), contentType, bytes)
    }
    case 'chunks': {
      const bytes = payload.totalBytes ?? payload.chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0)
      if (!isTextual(contentType)) return binaryBody(bytes)
      // JSON longer than what is redacted of it is only read that far (textOrJson cuts it the same way).
      const needed = isJson(contentType) ? REDACTED_JSON_CHARS + 1 : Number.POSITIVE_INFINITY
      return textOrJson(leadingText(payload.chunks, needed), contentType, bytes)
    }
    case 'text':
      // The declared length is the same number without a pass over a body of megabytes.
      return textOrJson(
        payload.text,
        contentType,
        payload.totalBytes ?? declaredLength ?? Buffer.byteLength(payload.text)
      )
  }
}

/** Characters a token (key, secret, JWT, base64) is made of. */
const TOKEN_CHAR = /[A-Za-z0-9_.~+/=-]/

/**
 * `text` without the run of token characters it ends with: where a body was cut, that run may be
 * half a secret. A scan back from the end: the regex `/[...]+$/` tried every start position of
 * every run in the text (measured 1.3% of a profile recording 1,000-item libraries).
 */
export function withoutTrailingTokenRun(text: string): string {
  let end = text.length
  while (end > 0 && TOKEN_CHAR.test(text.charAt(end - 1))) end--
  return end === text.length ? text : text.slice(0, end)
}

/**
 * A JSON body that cannot be kept whole is redacted as text and cut, not parsed whole, redacted as
 * a tree, serialised and then cut: the kept part is the same 16 KiB of redacted JSON either way,
 * and the 10-item library (19 KB) cost the request log 370 us a call the long way (profiled).
 */
function textOrJson(text: string, contentType: string | null, bytes: number): ShownBody {
  if (isJson(contentType) && text.length > MAX_BODY_CHARS) {
    // Redact a little more than is kept, then cut; a token-like run the cut splits is dropped.
    const shown = withoutTrailingTokenRun(redactJsonText(text.slice(0, REDACTED_JSON_CHARS)).slice(0, MAX_BODY_CHARS))
    return { body: shown, bodyInfo: { kind: 'json', bytes, truncated: true, note: truncationNote(bytes) } }
  }
  if (isJson(contentType)) {
    try {
      return parsedJsonBody(JSON.parse(text), bytes)
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return textBody(redactText(text), bytes)
}

/** A body with no content type is read as JSON when it parses. */
function isJson(contentType: string | null): boolean {
  return contentType === null || /json/i.test(contentType)
}

/** The chunks decoded as UTF-8 until the text has at least `chars` characters (or all of them). */
function leadingText(chunks: readonly Uint8Array[], chars: number): string {
  const decoder = new TextDecoder()
  let text = ''
  for (const chunk of chunks) {
    text += decoder.decode(chunk, { stream: true })
    if (text.length >= chars) return text
  }
  return text + decoder.decode()
}

function jsonBody(value: unknown, bytes: number): { body: unknown; bodyInfo: BodyInfo } {
  const serialized = JSON.stringify(value) ?? 'null'
  if (serialized.includes(TOO_DEEP)) {
    const body = serialized.length <= MAX_BODY_CHARS ? value : serialized.slice(0, MAX_BODY_CHARS)
    return {
      body,
      bodyInfo: {
        kind: 'json',
        bytes,
        truncated: true,
        note: `Nested too deeply to record whole: levels past the ${MAX_REDACTION_DEPTH}th are left out.`
      }
    }
  }
  if (serialized.length <= MAX_BODY_CHARS) return { body: value, bodyInfo: { kind: 'json', bytes, truncated: false } }
  // Cut after redaction, so the cut can only shorten a preview, never expose what it hid.
  return {
    body: serialized.slice(0, MAX_BODY_CHARS),
    bodyInfo: { kind: 'json', bytes, truncated: true, note: truncationNote(bytes) }
  }
}

function textBody(text: string, bytes: number): { body: unknown; bodyInfo: BodyInfo } {
  if (text.length <= MAX_BODY_CHARS) return { body: text, bodyInfo: { kind: 'text', bytes, truncated: false } }
  return {
    body: text.slice(0, MAX_BODY_CHARS),
    bodyInfo: { kind: 'text', bytes, truncated: true, note: truncationNote(bytes) }
  }
}

function binaryBody(bytes: number): { body: unknown; bodyInfo: BodyInfo } {
  return {
    body: null,
    bodyInfo: { kind: 'binary', bytes, truncated: false, note: `A binary body of ${bytes} bytes; not recorded.` }
  }
}

function truncationNote(bytes: number): string {
  return `Cut to the first ${MAX_BODY_CHARS / 1024} KiB (the body had ${bytes} bytes).`
}

function headerText(value: string | number | string[] | undefined): string | null {
  if (value === undefined) return null
  return Array.isArray(value) ? (value[0] ?? null) : String(value)
}

function isTextual(contentType: string | null): boolean {
  return contentType !== null && /json|text\/|xml|x-www-form-urlencoded|javascript/i.test(contentType)
}

function looksBinary(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 512)
  for (const byte of sample) if (byte === 0) return true
  return false
}
