import { Type } from 'typebox'

import { FAULT_DEFAULTS, FAULT_KINDS, FAULT_LIMITS, FAULT_STAGES } from '../contract/faults'
import { Nullable } from './common'

export const FaultKindSchema = Type.Enum([...FAULT_KINDS], {
  description:
    'latency: wait ms ± jitterMs, then answer normally. error: answer `status` with FAULT_INJECTED. ' +
    'rate_limit: answer 429 RATE_LIMITED with a Retry-After header. offline: close the connection with no response. ' +
    'trickle: send the real response slowly, its body in small pieces spread over ms.'
})

export const FaultStageSchema = Type.Enum([...FAULT_STAGES], {
  description:
    'before (default): the rule acts before the request is answered; a forwarded request then never reaches the upstream. ' +
    'after: forwarded requests only; the upstream is called and acts, then the rule applies to its answer.'
})

const Milliseconds = (description: string) =>
  Nullable(Type.Integer({ minimum: 0, maximum: FAULT_LIMITS.maxMs, description }))

/**
 * A rule as written by a client. Absent and null mean the same, so a rule from GET can be sent
 * back unchanged. Fields of another kind (`status` on a latency rule...) are refused by the core.
 */
export const FaultRuleInputSchema = Type.Object(
  {
    id: Type.Optional(
      Nullable(Type.String({ pattern: FAULT_LIMITS.idPattern, description: 'Kept when given; generated otherwise.' }))
    ),
    method: Type.Optional(
      Nullable(
        Type.String({
          pattern: FAULT_LIMITS.methodPattern,
          description: 'HTTP method, any case; absent or null matches every method.'
        })
      )
    ),
    route: Type.String({
      minLength: 1,
      maxLength: FAULT_LIMITS.maxRouteLength,
      pattern: '^[/*][^\\s?#]*$',
      description:
        'Path pattern, matched against the path without the query: `*` within one segment, `**` across segments.'
    }),
    kind: FaultKindSchema,
    ms: Type.Optional(
      Milliseconds(
        `latency: the delay (default ${FAULT_DEFAULTS.ms}). trickle: the time the body is spread over (default ${FAULT_DEFAULTS.ms}). ` +
          'error, rate_limit, offline: a wait before the fault acts (default none).'
      )
    ),
    jitterMs: Type.Optional(Milliseconds('ms varies uniformly by up to this much either way (default 0).')),
    status: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 400,
          maximum: 599,
          description: `error only: the status answered (default ${FAULT_DEFAULTS.errorStatus}).`
        })
      )
    ),
    probability: Type.Optional(
      Nullable(
        Type.Number({ minimum: 0, maximum: 1, description: 'Chance that a matching request is faulted (default 1).' })
      )
    ),
    stage: Type.Optional(Nullable(FaultStageSchema)),
    retryAfterS: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: FAULT_LIMITS.maxRetryAfterS,
          description: `rate_limit only: the Retry-After header and retryAfter field, in seconds (default ${FAULT_DEFAULTS.retryAfterS}).`
        })
      )
    )
  },
  { additionalProperties: false }
)

/** A stored rule: defaults resolved, every key present. */
export const FaultRuleSchema = Type.Object({
  id: Type.String(),
  method: Nullable(Type.String()),
  route: Type.String(),
  kind: FaultKindSchema,
  ms: Nullable(Type.Integer()),
  jitterMs: Nullable(Type.Integer()),
  status: Nullable(Type.Integer()),
  probability: Type.Number(),
  retryAfterS: Nullable(Type.Integer()),
  stage: FaultStageSchema
})

export const FaultRulesBody = Type.Object(
  {
    rules: Type.Array(FaultRuleInputSchema, {
      maxItems: FAULT_LIMITS.maxRules,
      description: 'Checked in order; the first rule whose method and route match a request decides for it.'
    })
  },
  { additionalProperties: false }
)

export const FaultRulesResponse = Type.Object({ ok: Type.Literal(true), rules: Type.Array(FaultRuleSchema) })

export const FaultRulesRemovedResponse = Type.Object({
  ok: Type.Literal(true),
  removed: Type.Integer({ description: 'How many rules were removed.' }),
  rules: Type.Array(FaultRuleSchema, { description: 'The rules that remain.' })
})
