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
  /**
   * When the request arrived (ISO 8601), read as the inspector reads it: the system clock less the
   * time since the request recorder first saw the request.
   */
  at: string
}

/**
 * How far apart the inspector's and the drift check's arrival times of one request may be. The
 * inspector numbers its entries itself and never learns the forwarded request's id, so no exact tie
 * exists; both sides instead read the arrival from the same instant (the recorder's first look at
 * the request), whatever a fault rule held it back or its body took. They then differ by rounding
 * (±1 ms), or a few ms when a busy machine pauses the process between the two clock reads. A wide
 * window paired neighbours as one request (it was 2 s).
 */
export const SAME_EXCHANGE_WINDOW_MS = 10

/**
 * How close an inspector entry and a checked exchange are (ms apart), or null when they cannot
 * be the same request: same method, redacted path and status, arrived within the window.
 */
export function exchangeDistance(a: ExchangeMark, b: ExchangeMark): number | null {
  const apart = msApart(a, b)
  return apart !== null && apart <= SAME_EXCHANGE_WINDOW_MS ? apart : null
}

/**
 * Whether two checked exchanges are too alike to tell apart from an inspector entry: an entry of
 * either could fall within the window of the other. A drifted exchange with a clean look-alike is
 * offered to no entry (unmarked; the report still counts it), so a clean request never shows drift.
 */
export function indistinguishable(a: ExchangeMark, b: ExchangeMark): boolean {
  const apart = msApart(a, b)
  return apart !== null && apart <= 2 * SAME_EXCHANGE_WINDOW_MS
}

/** How far apart two exchanges of the same method, path and status arrived; null for unlike ones. */
function msApart(a: ExchangeMark, b: ExchangeMark): number | null {
  if (a.method.toUpperCase() !== b.method.toUpperCase() || a.status !== b.status || a.path !== b.path) return null
  const apart = Math.abs(Date.parse(a.at) - Date.parse(b.at))
  return Number.isFinite(apart) ? apart : null
}

/** An inspector entry as the pairing reads it: who answered it too. */
export interface InspectedExchange extends ExchangeMark {
  answeredBy?: AnsweredBy | undefined
}

/**
 * How close an inspector entry is to a checked exchange (exchangeDistance), or null when it cannot
 * be that exchange: only a forwarded request had an upstream answer to check. The candidates are
 * the drifted exchanges no clean one is indistinguishable from, so a clean entry finds none within
 * the window; a drifted entry takes the nearest, its own unless a look-alike arrived in the same ms
 * or two.
 */
export function entryDistance(entry: InspectedExchange, checked: ExchangeMark): number | null {
  return entry.answeredBy === 'upstream' ? exchangeDistance(entry, checked) : null
}
