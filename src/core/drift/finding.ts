import type { DriftFindingKind, DriftLocation } from '../../shared/contract/drift'

/**
 * One departure from the contract in one exchange, before it is aggregated: `expected` and `seen`
 * describe (a type, a status, a claim), `value` is the offending value as received (redacted
 * before it is kept anywhere).
 */
export interface ExchangeFinding {
  readonly kind: DriftFindingKind
  readonly location: DriftLocation
  /** A JSON path (`$.license.status`, `$.products[].id`), a header name, or the status. */
  readonly path: string
  readonly expected: string
  readonly seen: string
  readonly value?: unknown
}
