/** Fault rules: their kinds, bounds and defaults, as core enforces them, the schema states them and the editor offers them. */
import { TRANSPORT_ERROR_STATUS } from './error-codes'

/** In the order the fault editor offers them. */
export const FAULT_KINDS = ['latency', 'error', 'rate_limit', 'offline', 'trickle'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

/** Bounds of a rule. */
export const FAULT_LIMITS = {
  maxRules: 100,
  /** Ten minutes: longer than any client timeout worth testing. */
  maxMs: 600_000,
  maxRouteLength: 500,
  maxRetryAfterS: 86_400,
  idPattern: '^[A-Za-z0-9_-]{1,64}$',
  methodPattern: '^[A-Za-z]{1,20}$'
} as const

/** What an absent field means; stored rules show these values resolved. */
export const FAULT_DEFAULTS = {
  /** Delay of a latency rule, and the time a trickle rule spreads the body over. */
  ms: 1000,
  errorStatus: TRANSPORT_ERROR_STATUS.FAULT_INJECTED,
  retryAfterS: 1,
  probability: 1
} as const
