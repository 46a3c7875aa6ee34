import type { AnsweredBy } from './inspector'

/**
 * The drift report's vocabulary (docs/upstream.md, "The drift report"): where an upstream's answer
 * departs from the emulator's own contract for that operation and status.
 */

/** What a finding says, each with one severity (the status one depends on the status class). */
export const DRIFT_FINDING_KINDS = [
  'UNDOCUMENTED_STATUS',
  'MISSING_FIELD',
  'WRONG_TYPE',
  'UNKNOWN_FIELD',
  'UNKNOWN_ERROR_CODE',
  'MISSING_HEADER',
  'NOT_JSON',
  'TOKEN_SIGNATURE',
  'TOKEN_CLAIMS'
] as const
export type DriftFindingKind = (typeof DRIFT_FINDING_KINDS)[number]

export const DRIFT_SEVERITIES = ['error', 'warning'] as const
export type DriftSeverity = (typeof DRIFT_SEVERITIES)[number]

/** Where in the answer: its status, a header, the JSON body, or a license token inside it. */
export const DRIFT_LOCATIONS = ['status', 'header', 'body', 'token'] as const
export type DriftLocation = (typeof DRIFT_LOCATIONS)[number]

/** A finding's severity: an undocumented status is an error only for a success (2xx). */
export function driftSeverityOf(kind: DriftFindingKind, status: number): DriftSeverity {
  switch (kind) {
    case 'UNDOCUMENTED_STATUS':
      return status >= 200 && status < 300 ? 'error' : 'warning'
    case 'UNKNOWN_FIELD':
    case 'UNKNOWN_ERROR_CODE':
    case 'MISSING_HEADER':
      return 'warning'
    case 'MISSING_FIELD':
    case 'WRONG_TYPE':
    case 'NOT_JSON':
    case 'TOKEN_SIGNATURE':
    case 'TOKEN_CLAIMS':
      return 'error'
  }
}

/** What identifies an exchange both in the request inspector and in the drift report. */
export interface ExchangeMark {
  method: string
  /** The redacted path and query, as the inspector shows it. */
  path: string
  status: number
  /** When the request arrived (ISO 8601). */
  at: string
}

/** How far apart the inspector's and the forwarding's arrival times of one request may be. */
const SAME_EXCHANGE_WINDOW_MS = 2_000

/**
 * How close an inspector entry and a checked exchange are (ms apart), or null when they cannot
 * be the same request: the inspector numbers its entries itself, so the two are paired by method,
 * redacted path, status and arrival time (the closest wins).
 */
export function exchangeDistance(a: ExchangeMark, b: ExchangeMark): number | null {
  if (a.method.toUpperCase() !== b.method.toUpperCase() || a.status !== b.status || a.path !== b.path) return null
  const apart = Math.abs(Date.parse(a.at) - Date.parse(b.at))
  return Number.isFinite(apart) && apart <= SAME_EXCHANGE_WINDOW_MS ? apart : null
}

/** An inspector entry as the pairing reads it: who answered it too. */
export interface InspectedExchange extends ExchangeMark {
  answeredBy?: AnsweredBy | undefined
}

/**
 * How close an inspector entry is to a checked exchange (exchangeDistance), or null when it cannot
 * be that exchange: only a forwarded request had an upstream answer to check, and a request the
 * emulator answered in the same second, with the same path and status, is not it.
 */
export function entryDistance(entry: InspectedExchange, checked: ExchangeMark): number | null {
  return entry.answeredBy === 'upstream' ? exchangeDistance(entry, checked) : null
}
