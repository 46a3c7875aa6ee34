import type { Static } from 'typebox'

import type { RecordingSummarySchema } from '../../shared/schemas/recordings'

/**
 * The recording document (docs/upstream.md, "Record, replay, reproduce"): forwarded exchanges in
 * the order they happened, every secret replaced by a fingerprint under the recording's own salt.
 * Its JSON Schema ships as resources/recording.schema.json (src/shared/schemas/recordings.ts).
 */
export const RECORDING_FORMAT = 'plugin-license-emulator/recording'
export const RECORDING_VERSION = 1
export const FINGERPRINT_ALGORITHM = 'HMAC-SHA256'

/** A body as the recording keeps it: nothing, a JSON value, text, or (large or binary) only its size and digest. */
export type RecordedBody =
  | { kind: 'none' }
  | { kind: 'json'; json: unknown }
  | { kind: 'text'; text: string }
  | { kind: 'digest'; bytes: number; sha256: string | null; note?: string }

export type RecordedHeaders = Record<string, string | string[]>

/** A license token the recording met: its header and claims (its signature is never kept), for `resign`. */
export interface RecordedLicenseToken {
  /** The fingerprint standing where the token was. */
  fingerprint: string
  header: Record<string, unknown>
  claims: Record<string, unknown>
}

export interface RecordedExchange {
  /** Position in the recording, from 1. */
  seq: number
  startedAt: string
  durationMs: number
  /**
   * Where the exchange was forwarded, only when that is not the recording's upstreamUrl: the
   * upstream was changed while the recording ran.
   */
  upstreamUrl?: string
  request: {
    method: string
    path: string
    /** The raw query string (without '?'), secrets fingerprinted. */
    query: string
    headers: RecordedHeaders
    body: RecordedBody
  }
  response: {
    status: number
    headers: RecordedHeaders
    body: RecordedBody
  }
  licenseTokens?: RecordedLicenseToken[]
}

export interface RecordingDocument {
  $schema?: string
  format: typeof RECORDING_FORMAT
  version: typeof RECORDING_VERSION
  id: string
  name: string
  startedAt: string
  stoppedAt: string | null
  upstreamUrl: string | null
  fingerprints: { algorithm: typeof FINGERPRINT_ALGORITHM; salt: string }
  /** Exchanges left out because, fingerprinted, they still held a value with a secret's shape. */
  refused: number
  /**
   * Exchanges observed while storage refused writes that could not be kept (over the memory bound,
   * or still waiting when the emulator stopped). Always written now; absent in older documents.
   */
  lost?: number
  exchanges: RecordedExchange[]
}

/** What the list of recordings shows of one (its wire shape, src/shared/schemas/recordings.ts). */
export type RecordingSummary = Static<typeof RecordingSummarySchema>
