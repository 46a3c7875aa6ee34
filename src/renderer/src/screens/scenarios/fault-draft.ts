import {
  FAULT_DEFAULTS,
  FAULT_KIND_FIELDS,
  FAULT_KINDS,
  FAULT_LIMITS,
  resolveFaultFields
} from '../../../../shared/contract/faults'
import type { FaultKind, FaultRule, FaultRuleInput } from '../../api/types'

/**
 * The fault rule editor's rows: every field as the text the person typed, turned into the
 * contract's rule (docs/api.md section 6) only on Apply. Fields that do not belong to a rule's
 * kind are never sent (the server refuses `status` on a latency rule, for one).
 */
export interface FaultDraft {
  /** Stable React key. */
  key: string
  id: string | null
  method: string
  route: string
  kind: FaultKind
  ms: string
  jitterMs: string
  status: string
  probability: string
  retryAfterS: string
  /** docs/upstream.md: `after` acts on the upstream's answer (forwarded requests only). Absent: before. */
  stage?: 'before' | 'after'
}

export const KIND_LABELS: Record<FaultKind, string> = {
  latency: 'Latency',
  error: 'Error status',
  rate_limit: 'Rate limit (429)',
  offline: 'Offline (drop connection)',
  trickle: 'Trickle (slow body)'
}

export const KIND_HELP: Record<FaultKind, string> = {
  latency: 'Waits ms ± jitter, then answers normally.',
  error: 'Answers the status with FAULT_INJECTED (after an optional wait).',
  rate_limit: 'Answers 429 RATE_LIMITED with Retry-After.',
  offline: 'Closes the connection without a response.',
  trickle: 'Sends the real response slowly, spread over ms.'
}

/** Which of the kind-bound fields a kind uses (the contract's table; ms and its jitter every kind takes), and what ms is called. */
export function fieldsOf(kind: FaultKind): { status: boolean; retryAfterS: boolean; msLabel: string } {
  const { status, retryAfterS } = FAULT_KIND_FIELDS[kind]
  return {
    status,
    retryAfterS,
    msLabel: kind === 'latency' ? 'Delay (ms)' : kind === 'trickle' ? 'Spread over (ms)' : 'Wait first (ms)'
  }
}

/**
 * What a fresh row of each kind starts with: the fields a kind shares with no other start over.
 * The answer fields start at the contract's defaults; the delay and the spread start at values
 * that show their effect plainly (the server's default for an empty one is the placeholder).
 */
const KIND_DEFAULTS: Record<FaultKind, Pick<FaultDraft, 'ms' | 'jitterMs' | 'status' | 'retryAfterS'>> = {
  latency: { ms: '1500', jitterMs: '', status: '', retryAfterS: '' },
  error: { ms: '', jitterMs: '', status: String(FAULT_DEFAULTS.errorStatus), retryAfterS: '' },
  rate_limit: { ms: '', jitterMs: '', status: '', retryAfterS: String(FAULT_DEFAULTS.retryAfterS) },
  offline: { ms: '', jitterMs: '', status: '', retryAfterS: '' },
  trickle: { ms: '10000', jitterMs: '', status: '', retryAfterS: '' }
}

/** The placeholder of each field: what the server does when it is left empty. */
export function placeholdersOf(kind: FaultKind): { ms: string; jitterMs: string; status: string; retryAfterS: string } {
  const resolved = resolveFaultFields({ kind })
  return {
    ms: String(resolved.ms ?? 0),
    jitterMs: '0',
    status: String(resolved.status ?? ''),
    retryAfterS: String(resolved.retryAfterS ?? '')
  }
}

/**
 * The row after its kind changed: route, method and probability stay; the timing and answer
 * fields start over at the new kind's defaults, so a latency row turned into a rate limit does
 * not keep a hidden 1,500 ms wait ("Wait first" means something else for each kind).
 */
export function withKind(draft: FaultDraft, kind: FaultKind): FaultDraft {
  if (kind === draft.kind) return draft
  return { ...draft, kind, ...KIND_DEFAULTS[kind] }
}

let counter = 0
const nextKey = () => `draft-${++counter}`

export function draftOf(rule: FaultRule): FaultDraft {
  const text = (value: number | null) => (value === null ? '' : String(value))
  return {
    key: nextKey(),
    id: rule.id,
    method: rule.method ?? '',
    route: rule.route,
    kind: rule.kind,
    ms: text(rule.ms),
    jitterMs: text(rule.jitterMs),
    status: text(rule.status),
    probability: rule.probability === 1 ? '' : String(rule.probability),
    retryAfterS: text(rule.retryAfterS),
    ...(rule.stage === 'after' ? { stage: 'after' as const } : {})
  }
}

export function newDraft(partial: Partial<Omit<FaultDraft, 'key'>> = {}): FaultDraft {
  const kind = partial.kind ?? 'latency'
  return {
    key: nextKey(),
    id: null,
    method: '',
    route: '/api/license/v1/**',
    kind,
    ...KIND_DEFAULTS[kind],
    probability: '',
    ...partial
  }
}

export type DraftErrors = Partial<
  Record<'route' | 'ms' | 'jitterMs' | 'status' | 'probability' | 'retryAfterS', string>
>

function integer(text: string, min: number, max: number, name: string): { value: number | null; error?: string } {
  const trimmed = text.trim()
  if (trimmed === '') return { value: null }
  if (!/^\d+$/.test(trimmed)) return { value: null, error: `${name} must be a whole number.` }
  const value = Number(trimmed)
  if (value < min || value > max) return { value: null, error: `${name} must be between ${min} and ${max}.` }
  return { value }
}

/** The rule to send, or what is wrong with the row. */
export function ruleOf(draft: FaultDraft): { rule: FaultRuleInput | null; errors: DraftErrors } {
  const errors: DraftErrors = {}
  const route = draft.route.trim()
  if (route === '') errors.route = 'A route pattern is needed, e.g. /api/license/v1/**.'
  else if (!/^[/*][^\s?#]*$/.test(route)) errors.route = 'Start with / (or *), no spaces, no query.'
  if (!FAULT_KINDS.includes(draft.kind)) errors.route = 'Unknown kind.'
  const uses = fieldsOf(draft.kind)
  const ms = integer(draft.ms, 0, FAULT_LIMITS.maxMs, 'ms')
  const jitter = integer(draft.jitterMs, 0, FAULT_LIMITS.maxMs, 'Jitter')
  const status = integer(draft.status, 400, 599, 'Status')
  const retry = integer(draft.retryAfterS, 0, FAULT_LIMITS.maxRetryAfterS, 'Retry-After')
  if (ms.error) errors.ms = ms.error
  if (jitter.error) errors.jitterMs = jitter.error
  if (uses.status && status.error) errors.status = status.error
  if (uses.retryAfterS && retry.error) errors.retryAfterS = retry.error
  let probability: number | null = null
  if (draft.probability.trim() !== '') {
    const value = Number(draft.probability.trim().replace(/%$/, ''))
    const ratio = draft.probability.trim().endsWith('%') ? value / 100 : value
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) errors.probability = 'Probability is 0 to 1 (or 0% to 100%).'
    else probability = ratio
  }
  if (Object.keys(errors).length > 0) return { rule: null, errors }
  const rule: FaultRuleInput = { route, kind: draft.kind }
  if (draft.id) rule.id = draft.id
  if (draft.method.trim()) rule.method = draft.method.trim().toUpperCase()
  if (ms.value !== null) rule.ms = ms.value
  if (jitter.value !== null) rule.jitterMs = jitter.value
  if (uses.status && status.value !== null) rule.status = status.value
  if (uses.retryAfterS && retry.value !== null) rule.retryAfterS = retry.value
  if (probability !== null) rule.probability = probability
  if (draft.stage === 'after') rule.stage = 'after'
  return { rule, errors }
}

/**
 * One line for people that states every effect of the rule:
 * "POST /api/plugin-connections/verify → answers 503 after 200 ms ± 50, 50% of the time".
 */
export function describeRule(rule: FaultRuleInput): string {
  const who = `${rule.method ?? 'Any method'} ${rule.route}`
  const { ms, jitterMs, status, retryAfterS } = resolveFaultFields(rule)
  const timing = `${ms ?? 0} ms${jitterMs ? ` ± ${jitterMs}` : ''}`
  const wait = ms ? ` after ${timing}` : ''
  let what: string
  switch (rule.kind) {
    case 'latency':
      what = `waits ${timing}, then answers normally`
      break
    case 'error':
      what = `answers ${status}${wait}`
      break
    case 'rate_limit':
      what = `answers 429${wait}, Retry-After ${retryAfterS} s`
      break
    case 'offline':
      what = `drops the connection${wait}`
      break
    case 'trickle':
      what = `trickles the body over ${timing}`
      break
  }
  const chance =
    rule.probability !== undefined && rule.probability !== null && rule.probability < 1
      ? `, ${Math.round(rule.probability * 100)}% of the time`
      : ''
  return `${who} → ${what}${chance}`
}

/** Ready-made rules QA reaches for. */
export const FAULT_TEMPLATES: { label: string; draft: Partial<Omit<FaultDraft, 'key'>> }[] = [
  {
    label: 'Slow licensing (2 s)',
    draft: { route: '/api/license/v1/**', kind: 'latency', ms: '2000', jitterMs: '500' }
  },
  {
    label: 'Verify answers 503',
    draft: { method: 'POST', route: '/api/plugin-connections/verify', kind: 'error', status: '503', ms: '' }
  },
  {
    label: 'Rate-limit activate',
    draft: { method: 'POST', route: '/api/license/v1/activate', kind: 'rate_limit', retryAfterS: '30', ms: '' }
  },
  { label: 'Licensing offline', draft: { route: '/api/license/v1/**', kind: 'offline', ms: '' } },
  {
    label: 'Flaky library (30% 500)',
    draft: { route: '/api/library/**', kind: 'error', status: '500', probability: '0.3', ms: '' }
  },
  { label: 'Trickle downloads', draft: { route: '/api/downloads/*', kind: 'trickle', ms: '10000' } }
]
