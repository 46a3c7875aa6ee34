/**
 * The request inspector's vocabulary: what the server hands over for each service request
 * (a raw capture, secrets and all) and what the inspector keeps and shows (redacted entries).
 */

import type { FaultKind, FaultStage } from '../../shared/contract/faults'
import type { AnsweredBy, AuthKind, RequestSource, Surface } from '../../shared/contract/inspector'

/** What a request showed of its credentials, for telling how it presented itself. */
export interface AuthEvidence {
  headers: Readonly<Record<string, string | string[] | undefined>>
  query: Readonly<Record<string, string | string[]>>
  /** The parsed request body, if any (library-token takes `library_token` there). */
  body: unknown
  surface: Surface
  path: string
  redaction: CaptureRedaction
}

/**
 * A response body as the server held it when sending: text, bytes, bytes in chunks (a large JSON
 * answer, of which only what is kept is decoded), a stream, or nothing. `totalBytes`: the whole
 * body's size, where only its start is held (heldCapture in ./redact-exchange.ts).
 */
export type CapturedPayload =
  | { kind: 'text'; text: string; totalBytes?: number }
  | { kind: 'bytes'; bytes: Uint8Array; totalBytes?: number }
  | { kind: 'chunks'; chunks: readonly Uint8Array[]; totalBytes?: number }
  | { kind: 'stream' }
  | { kind: 'none' }

/** The request body: what the route parsed (if it got that far) and the bytes that arrived. */
export interface CapturedRequestBody {
  /** The parsed body, when parsing succeeded; undefined when it failed or never ran. */
  parsed: unknown
  /** What arrived, as the JSON parser read it (text) or as bytes (heldCapture keeps only what a redaction reads). */
  head: readonly (Uint8Array | string)[]
  /** Bytes received in all. */
  receivedBytes: number
}

/** How to redact captures of one server: its credential header names and values to hide whole. */
export interface CaptureRedaction {
  /** The `x-<prefix>-app-id` header: not secret, names the product. */
  appIdHeader: string
  /** Product credential headers previewed whatever their value (`-plugin-key`, `-plugin-secret`, `-api-key`). */
  credentialHeaders: readonly string[]
  /** Header names replaced whole (`x-emulator-token`). */
  hiddenHeaders: readonly string[]
  /** Literal values replaced wherever they appear (the admin token). */
  hiddenValues: readonly string[]
}

/**
 * One finished exchange, exactly as the server saw it. Plain data (it is posted to the log's
 * worker thread): held in memory only until it is redacted there, before anything is written or shown.
 */
export interface RequestCapture {
  method: string
  /** Path and query as received. */
  url: string
  status: number
  durationMs: number
  requestHeaders: Readonly<Record<string, string | string[] | undefined>>
  requestBody: CapturedRequestBody
  /** The `productId` route parameter, when the matched route has one. */
  routeProductId: string | null
  /** The product whose App ID the request's App ID header names, as it was when the request was answered. */
  appIdProductId: string | null
  responseHeaders: Readonly<Record<string, string | number | string[] | undefined>>
  response: CapturedPayload
  /**
   * The connection closed before the response was complete (client gone, or an offline fault).
   * `status` is then 0 if not even the status line went out.
   */
  aborted: boolean
  /** Sentences for QA about the exchange (unknown query parameters or body fields the route ignored). */
  warnings?: readonly string[] | undefined
  redaction: CaptureRedaction
  /** Which part of the API it called and how it presented itself, as the server classifies them. */
  surface: Surface
  authKind: AuthKind
  /** The fault rule that fired for the request, described as it was then; null when none did. */
  fault?: FaultSummary | null | undefined
  /** Who answered (docs/upstream.md); `emulator` when absent. */
  answeredBy?: AnsweredBy | undefined
  /** The upstream's answer to a forwarded request; null when it gave none. */
  upstream?: { status: number; durationMs: number } | null | undefined
}

/** What a body was, how big, and whether the stored copy is cut. */
export interface BodyInfo {
  kind: 'none' | 'json' | 'text' | 'binary' | 'stream'
  /** Bytes on the wire, when known. */
  bytes: number | null
  truncated: boolean
  /** A sentence for a person when the body is not shown as it was (binary, stream, cut). */
  note?: string
}

export interface RecordedRequest {
  headers: Record<string, string | string[]>
  query: Record<string, string | string[]>
  /** JSON value, text, or null (see bodyInfo). Redacted. */
  body: unknown
  bodyInfo: BodyInfo
  /** Present when the server ignored something the request sent (unknown names), one sentence each. */
  warnings?: string[]
  /** Present when the body carried license tokens: each one's header and claims (never its signature). */
  licenseTokens?: DecodedLicenseToken[]
}

export interface RecordedResponse {
  headers: Record<string, string | string[]>
  body: unknown
  bodyInfo: BodyInfo
  /** Present when the body carried license tokens (`license_token` of activate and validate). */
  licenseTokens?: DecodedLicenseToken[]
}

/**
 * A license token as the inspector keeps it: its JOSE header and claims, redacted like any body
 * (a claim holding a key, secret or token shows a preview); the signature, and so the compact
 * token, is never kept.
 */
export interface DecodedLicenseToken {
  /** Where the body held it: a member name, or `outer.inner` one object down. */
  field: string
  header: Record<string, unknown>
  claims: Record<string, unknown>
}

/** One row of the inspector list. */
export interface RequestSummary {
  id: number
  /** When the request arrived, on the system clock (a moved emulator clock does not shift it). */
  at: string
  surface: Surface
  method: string
  /** Path and query, redacted. */
  path: string
  /** HTTP status; 0 when the connection closed before a response was sent. */
  status: number
  durationMs: number
  authKind: AuthKind
  productId: string | null
  /** Who sent it: a plugin or script (`client`), the UI's connection tester, or the UI's own screens. */
  source: RequestSource
  /** The answer's error code (`error`, or `code` of a validate answer that is not valid); null for a success. */
  errorCode: string | null
  /** The fault rule that dropped, delayed, failed or rate-limited it; null when none fired. */
  fault: FaultSummary | null
  /** Who answered: the emulator, the upstream it was forwarded to, or a recording. */
  answeredBy: AnsweredBy
  /** The upstream's status for a forwarded request (null: not forwarded, or no answer). */
  upstreamStatus: number | null
  /** The upstream's time to its answer's last byte (null: not forwarded, or no answer). */
  upstreamMs: number | null
}

/** A fault rule as the inspector names it: it may have been changed or removed since. */
export interface FaultSummary {
  ruleId: string
  kind: FaultKind
  /** What the rule was when it fired: `rate_limit POST /api/license/v1/activate (retry after 30 s)`. */
  label: string
  /** Whether it acted before the request was answered (or forwarded), or after the upstream answered. */
  stage: FaultStage
}

export interface RequestEntry extends RequestSummary {
  request: RecordedRequest
  response: RecordedResponse
}

/** List filters; every one optional. */
export interface RequestFilter {
  surface?: Surface | undefined
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string | undefined
  method?: string | undefined
  productId?: string | undefined
  authKind?: AuthKind | undefined
  /** Substring of the redacted path and query (case-insensitive). */
  path?: string | undefined
  /**
   * Text anywhere in the redacted exchange: path and query, headers, request and response
   * bodies (a license key, an instance id, an error code), case-insensitive.
   */
  q?: string | undefined
  /** Only these sources (none given: every source). */
  source?: readonly RequestSource[] | undefined
  answeredBy?: AnsweredBy | undefined
}

export interface RequestPage {
  /** Newest first. */
  entries: RequestSummary[]
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null
}
