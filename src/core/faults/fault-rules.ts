import {
  FAULT_DEFAULTS,
  FAULT_KIND_FIELDS,
  FAULT_KINDS,
  FAULT_LIMITS,
  FAULT_STAGES,
  resolveFaultFields
} from '../../shared/contract/faults'
import type { FaultKind, FaultStage } from '../../shared/contract/faults'
import { SECRET_FIELD_NAMES } from '../../shared/contract/secret-fields'
import { newId } from '../crypto/random'
import { DomainError } from '../errors/domain-error'
import { replaceSecretShapes } from '../redaction/redact'
import { shownId } from '../redaction/shown-id'
import { compileRoutePattern, routePatternProblem } from './route-pattern'
import type { PathMatcher } from './route-pattern'

/**
 * A stored rule, every key present. `ms` is the delay for `latency`, the spread of the body for
 * `trickle`, and an optional wait before the fault acts for `error`, `rate_limit` and `offline`
 * (null: none). `status` is set for `error` only, `retryAfterS` for `rate_limit` only.
 */
export interface FaultRule {
  id: string
  /** Upper case; null matches every method. */
  method: string | null
  route: string
  kind: FaultKind
  ms: number | null
  jitterMs: number | null
  status: number | null
  probability: number
  retryAfterS: number | null
  /** Calls left before the rule retires itself ("the next N calls"); null: no end. */
  times: number | null
  /** Only requests whose body field (or query parameter) of this name has this value; null: every request. */
  match: FaultMatch | null
  /** Before the service (or upstream) acts, or after the upstream answered (forwarded requests only). */
  stage: FaultStage
}

/** A rule narrowed to one customer's plugin: `{ field: "license_key", equals: "DEMO1-..." }`. */
export interface FaultMatch {
  /** A top-level JSON body field, or a dotted path into it (`instance.id`); else a query parameter. */
  field: string
  equals: string
}

/** What a request holds for a rule's match: a body field's or a query parameter's value as text. */
export type FieldReader = (field: string) => string | undefined

/** A rule as a client writes it. Null means "not set", so a listed rule can be sent back as is. */
export interface FaultRuleInput {
  /** Kept when given (a UI's stable key); generated otherwise. */
  id?: string | null | undefined
  method?: string | null | undefined
  route: string
  kind: FaultKind
  ms?: number | null | undefined
  jitterMs?: number | null | undefined
  status?: number | null | undefined
  probability?: number | null | undefined
  retryAfterS?: number | null | undefined
  times?: number | null | undefined
  match?: FaultMatch | null | undefined
  stage?: FaultStage | null | undefined
}

/** A rule that fired for one request, with its wait (ms ± jitter) already drawn. */
export interface FaultHit {
  rule: FaultRule
  delayMs: number
}

export interface FaultRules {
  list(): FaultRule[]
  /** Whether any rule is set: with none, a request needs no matching at all. */
  any(): boolean
  /** Replaces every rule at once (all or nothing); answers the stored rules. */
  replace(inputs: readonly FaultRuleInput[]): FaultRule[]
  /** Removes one rule; FAULT_RULE_NOT_FOUND when no rule has that id. */
  remove(id: string): FaultRule
  clear(): void
  /**
   * Whether the first rule the method and route reach matches on a body field: then the fault
   * is picked once the body is read (`pick` with `fields`), not before.
   */
  waitsForBody(method: string, path: string): boolean
  /**
   * The fault for one request: the first rule whose method, route and match (if any) fit decides,
   * and fires with its probability. When it does not fire the request is served normally; later
   * rules are not consulted, so the outcome of a request never depends on more than one roll.
   * A rule with a match fits only with `fields` (the request's body and query) given. A rule
   * with `times` counts each firing and retires itself after its last one.
   */
  pick(method: string, path: string, fields?: FieldReader): FaultHit | null
  /**
   * A hit whose rule turned out not to apply (an `after` rule with no upstream answer to act on):
   * the call it counted is given back, and a rule it retired comes back where it stood. Nothing
   * happens when the rules were replaced, cleared or the rule removed since, or when the hit
   * was given back already.
   */
  giveBack(hit: FaultHit): void
}

export interface FaultRulesOptions {
  /** Uniform in [0, 1), like Math.random (the default). Tests inject a fixed sequence. */
  random?: () => number
  /** Called after the rules changed (the change feed). */
  onChange?: () => void
}

interface CompiledRule {
  rule: FaultRule
  matches: PathMatcher
}

export function createFaultRules(options: FaultRulesOptions = {}): FaultRules {
  const random = options.random ?? Math.random
  let compiled: CompiledRule[] = []
  // Bumped by every change a client makes (replace, remove, clear): a use given back after one
  // would revive a rule the client has since dropped.
  let generation = 0
  // What each counted hit took, until it is given back (a WeakMap: a hit that applied is forgotten).
  const counted = new WeakMap<FaultHit, { entry: CompiledRule; index: number; generation: number }>()

  return {
    list: () => compiled.map(({ rule }) => copyOf(rule)),

    replace(inputs) {
      if (inputs.length > FAULT_LIMITS.maxRules) invalid('/rules', `must have at most ${FAULT_LIMITS.maxRules} rules`)
      const seen = new Set<string>()
      const next = inputs.map((input, index) => {
        const rule = storedRule(input, index)
        if (seen.has(rule.id)) invalid(`/rules/${index}/id`, `repeats the id ${rule.id}`)
        seen.add(rule.id)
        return { rule, matches: compileRoutePattern(rule.route) }
      })
      compiled = next
      generation += 1
      options.onChange?.()
      return compiled.map(({ rule }) => copyOf(rule))
    },

    remove(id) {
      const found = compiled.find((entry) => entry.rule.id === id)
      if (!found) throw new DomainError('FAULT_RULE_NOT_FOUND', `No fault rule has the id ${shownId(id, 'flt')}.`)
      compiled = compiled.filter((entry) => entry !== found)
      generation += 1
      options.onChange?.()
      return copyOf(found.rule)
    },

    clear() {
      const had = compiled.length > 0
      compiled = []
      generation += 1
      if (had) options.onChange?.()
    },

    any: () => compiled.length > 0,

    waitsForBody(method, path) {
      const verb = method.toUpperCase()
      const first = compiled.find(
        ({ rule, matches }) => (rule.method === null || rule.method === verb) && matches(path)
      )
      return first?.rule.match != null
    },

    pick(method, path, fields) {
      const verb = method.toUpperCase()
      let first: CompiledRule | undefined
      for (const entry of compiled) {
        const { rule, matches } = entry
        if (!((rule.method === null || rule.method === verb) && matches(path))) continue
        if (rule.match && (!fields || fields(rule.match.field) !== rule.match.equals)) continue
        first = entry
        break
      }
      if (!first) return null
      const { rule } = first
      // random() is in [0, 1): probability 0 never fires, 1 always does.
      if (!(random() < rule.probability)) return null
      const fired = copyOf(rule)
      const hit: FaultHit = { rule: fired, delayMs: drawDelay(rule.ms ?? 0, rule.jitterMs ?? 0, random) }
      if (rule.times !== null) {
        counted.set(hit, { entry: first, index: compiled.indexOf(first), generation })
        rule.times -= 1
        if (rule.times <= 0) compiled = compiled.filter((entry) => entry !== first)
        options.onChange?.()
      }
      return hit
    },

    giveBack(hit) {
      const taken = counted.get(hit)
      if (!taken) return
      counted.delete(hit)
      if (taken.generation !== generation) return
      const { entry, index } = taken
      if (entry.rule.times === null) return
      entry.rule.times += 1
      if (!compiled.includes(entry)) {
        // Retired by this very call: back where it stood (before a rule that was after it).
        compiled = [...compiled.slice(0, index), entry, ...compiled.slice(index)]
      }
      options.onChange?.()
    }
  }
}

function copyOf(rule: FaultRule): FaultRule {
  return { ...rule, match: rule.match ? { ...rule.match } : null }
}

/** `ms ± jitterMs`, uniformly, never negative. */
export function drawDelay(ms: number, jitterMs: number, random: () => number): number {
  if (jitterMs <= 0) return ms
  return Math.max(0, Math.round(ms + (random() * 2 - 1) * jitterMs))
}

/**
 * One input as stored: defaults resolved, method upper-cased, and the checks a JSON schema
 * cannot state (fields that belong to another kind, a usable route pattern). Types and ranges
 * are checked by the caller's schema; they are checked again here only where a bad value
 * would break matching.
 */
function storedRule(input: FaultRuleInput, index: number): FaultRule {
  const at = (field: string) => `/rules/${index}/${field}`
  if (!FAULT_KINDS.includes(input.kind)) invalid(at('kind'), `must be one of ${FAULT_KINDS.join(', ')}`)
  if (input.stage != null && !FAULT_STAGES.includes(input.stage)) invalid(at('stage'), 'must be "before" or "after"')
  const routeProblem = typeof input.route === 'string' ? routePatternProblem(input.route) : 'must be a string'
  if (routeProblem) invalid(at('route'), routeProblem)
  if (input.id != null && !new RegExp(FAULT_LIMITS.idPattern).test(input.id))
    invalid(at('id'), 'must be 1 to 64 letters, digits, "-" or "_"')
  if (input.method != null && !new RegExp(FAULT_LIMITS.methodPattern).test(input.method))
    invalid(at('method'), 'must be an HTTP method name')
  const fields = FAULT_KIND_FIELDS[input.kind]
  if (input.status != null && !fields.status) invalid(at('status'), 'applies only to kind "error"')
  if (input.retryAfterS != null && !fields.retryAfterS) invalid(at('retryAfterS'), 'applies only to kind "rate_limit"')
  const probability = input.probability ?? FAULT_DEFAULTS.probability
  if (!(probability >= 0 && probability <= 1)) invalid(at('probability'), 'must be between 0 and 1')
  if (
    input.times != null &&
    !(Number.isInteger(input.times) && input.times >= 1 && input.times <= FAULT_LIMITS.maxTimes)
  )
    invalid(at('times'), `must be a whole number from 1 to ${FAULT_LIMITS.maxTimes}`)
  if (input.match != null) {
    if (typeof input.match.field !== 'string' || !new RegExp(FAULT_LIMITS.matchFieldPattern).test(input.match.field))
      invalid(at('match/field'), 'must be a field name (letters, digits, "_", "-", dots between names)')
    if (typeof input.match.equals !== 'string' || input.match.equals.length > FAULT_LIMITS.maxMatchValueLength)
      invalid(at('match/equals'), `must be a string of at most ${FAULT_LIMITS.maxMatchValueLength} characters`)
    // Rules are listed, exported and named in the inspector's fault label: a credential or token
    // in one would leak there. A rule singles out a license key or an instance id instead.
    const leaf = (input.match.field.split('.').pop() ?? '').toLowerCase()
    if (SECRET_FIELD_NAMES.has(leaf))
      invalid(at('match/field'), 'names a secret field: match a license key or an instance id, never a credential')
    if (replaceSecretShapes(input.match.equals, () => '') !== input.match.equals)
      invalid(
        at('match/equals'),
        'has the shape of a secret (a plugin key or secret, a token): match a license key or an instance id'
      )
  }
  const { ms, jitterMs, status, retryAfterS } = resolveFaultFields(input)
  return {
    id: input.id ?? newId('flt'),
    method: input.method != null ? input.method.toUpperCase() : null,
    route: input.route,
    kind: input.kind,
    ms,
    jitterMs,
    status,
    probability,
    retryAfterS,
    times: input.times ?? null,
    match: input.match ? { field: input.match.field, equals: input.match.equals } : null,
    stage: input.stage ?? 'before'
  }
}

function invalid(path: string, problem: string): never {
  throw new DomainError('VALIDATION_ERROR', `The fault rule field "${path}" ${problem}.`, {
    details: { details: [{ location: 'body', path, problem }] }
  })
}
