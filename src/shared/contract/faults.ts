/** Fault rules: their kinds, bounds and defaults, as core enforces them, the schema states them and the editor offers them. */
import { TRANSPORT_ERROR_STATUS } from './error-codes'

/** In the order the fault editor offers them. */
export const FAULT_KINDS = ['latency', 'error', 'rate_limit', 'offline', 'trickle'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

/**
 * When a rule acts on a forwarded request (docs/upstream.md): `before` the upstream is called (it
 * never is), or `after` it answered (it acted; the client hears of it late, wrongly or never).
 */
export const FAULT_STAGES = ['before', 'after'] as const
export type FaultStage = (typeof FAULT_STAGES)[number]

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

/**
 * The fields each kind takes beyond route, method and probability. `ms` (and its jitter) every
 * kind takes: the delay of a latency rule, the spread of a trickle rule, a wait before the others
 * act. `status` belongs to `error` alone, `retryAfterS` to `rate_limit` alone.
 */
export const FAULT_KIND_FIELDS: Record<
  FaultKind,
  { status: boolean; retryAfterS: boolean; /** ms when none is given. */ defaultMs: number | null }
> = {
  latency: { status: false, retryAfterS: false, defaultMs: FAULT_DEFAULTS.ms },
  error: { status: true, retryAfterS: false, defaultMs: null },
  rate_limit: { status: false, retryAfterS: true, defaultMs: null },
  offline: { status: false, retryAfterS: false, defaultMs: null },
  trickle: { status: false, retryAfterS: false, defaultMs: FAULT_DEFAULTS.ms }
}

/** The timing and answer fields of a rule with every absent one resolved to what the server does (null: not used by the kind). */
export interface ResolvedFaultFields {
  ms: number | null
  jitterMs: number | null
  status: number | null
  retryAfterS: number | null
}

/** What a rule's absent fields mean: how the server stores it, and what a summary of it states. */
export function resolveFaultFields(
  rule: { kind: FaultKind } & { [K in keyof ResolvedFaultFields]?: number | null | undefined }
): ResolvedFaultFields {
  const fields = FAULT_KIND_FIELDS[rule.kind]
  return {
    ms: rule.ms ?? fields.defaultMs,
    jitterMs: rule.jitterMs ?? null,
    status: fields.status ? (rule.status ?? FAULT_DEFAULTS.errorStatus) : null,
    retryAfterS: fields.retryAfterS ? (rule.retryAfterS ?? FAULT_DEFAULTS.retryAfterS) : null
  }
}
