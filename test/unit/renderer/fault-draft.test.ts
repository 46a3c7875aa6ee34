import { describe, expect, it } from 'vitest'

import {
  describeRule,
  draftOf,
  FAULT_TEMPLATES,
  fieldsOf,
  newDraft,
  placeholdersOf,
  ruleOf,
  withKind
} from '../../../src/renderer/src/screens/scenarios/fault-draft'
import { FAULT_KIND_FIELDS, FAULT_KINDS, resolveFaultFields } from '../../../src/shared/contract/faults'

describe('fault rule editor rows', () => {
  it('turns a row into the contract rule, sending only the fields of its kind', () => {
    const { rule, errors } = ruleOf(
      newDraft({
        kind: 'latency',
        route: '/api/license/v1/**',
        ms: '1500',
        jitterMs: '200',
        status: '500',
        retryAfterS: '9'
      })
    )
    expect(errors).toEqual({})
    expect(rule).toEqual({ route: '/api/license/v1/**', kind: 'latency', ms: 1500, jitterMs: 200 })

    expect(
      ruleOf(newDraft({ kind: 'error', route: '/api/library', method: 'get', status: '503', ms: '' })).rule
    ).toEqual({
      route: '/api/library',
      kind: 'error',
      method: 'GET',
      status: 503
    })
    // Every kind takes a wait with its jitter, as the server does (docs/api.md section 6).
    expect(
      ruleOf(newDraft({ kind: 'rate_limit', route: '/x', retryAfterS: '30', ms: '', jitterMs: '5', status: '500' }))
        .rule
    ).toEqual({
      route: '/x',
      kind: 'rate_limit',
      jitterMs: 5,
      retryAfterS: 30
    })
    expect(ruleOf(newDraft({ kind: 'offline', route: '/x', ms: '20', jitterMs: '5' })).rule).toEqual({
      route: '/x',
      kind: 'offline',
      ms: 20,
      jitterMs: 5
    })
  })

  it('reads probability as a ratio or a percentage', () => {
    expect(ruleOf(newDraft({ route: '/x', probability: '0.25' })).rule?.probability).toBe(0.25)
    expect(ruleOf(newDraft({ route: '/x', probability: '30%' })).rule?.probability).toBe(0.3)
    expect(ruleOf(newDraft({ route: '/x', probability: '' })).rule?.probability).toBeUndefined()
    expect(ruleOf(newDraft({ route: '/x', probability: '2' })).errors.probability).toBeDefined()
  })

  it('says what is wrong with a row', () => {
    expect(ruleOf(newDraft({ route: '' })).errors.route).toContain('route pattern is needed')
    expect(ruleOf(newDraft({ route: 'api/x' })).errors.route).toContain('Start with /')
    expect(ruleOf(newDraft({ route: '/x?y=1' })).errors.route).toBeDefined()
    expect(ruleOf(newDraft({ route: '/x', ms: 'soon' })).errors.ms).toContain('whole number')
    expect(ruleOf(newDraft({ route: '/x', kind: 'error', status: '200' })).errors.status).toContain(
      'between 400 and 599'
    )
    expect(ruleOf(newDraft({ route: '/x', ms: '600001' })).rule).toBeNull()
  })

  it('round-trips a stored rule, keeping its id', () => {
    const stored = {
      id: 'flt_1',
      method: 'POST',
      route: '/api/plugin-connections/verify',
      kind: 'error' as const,
      ms: null,
      jitterMs: null,
      status: 503,
      probability: 0.5,
      retryAfterS: null,
      stage: 'before' as const
    }
    expect(ruleOf(draftOf(stored)).rule).toEqual({
      id: 'flt_1',
      method: 'POST',
      route: '/api/plugin-connections/verify',
      kind: 'error',
      status: 503,
      probability: 0.5
    })
    expect(draftOf({ ...stored, probability: 1 }).probability).toBe('')
  })

  it('describes rules for people, and every template is valid', () => {
    expect(
      describeRule({
        method: 'POST',
        route: '/api/plugin-connections/verify',
        kind: 'error',
        status: 503,
        probability: 0.5
      })
    ).toBe('POST /api/plugin-connections/verify → answers 503, 50% of the time')
    expect(describeRule({ route: '/api/license/v1/**', kind: 'latency', ms: 2000, jitterMs: 500 })).toBe(
      'Any method /api/license/v1/** → waits 2000 ms ± 500, then answers normally'
    )
    for (const template of FAULT_TEMPLATES) expect(ruleOf(newDraft(template.draft)).errors).toEqual({})
  })

  it('starts the timing and answer fields over when the kind changes, keeping route, method and probability', () => {
    const latency = newDraft({ method: 'POST', route: '/api/license/v1/activate', probability: '0.5', jitterMs: '200' })
    expect(latency.ms).toBe('1500')
    const limited = withKind(latency, 'rate_limit')
    expect(limited).toMatchObject({
      kind: 'rate_limit',
      method: 'POST',
      route: '/api/license/v1/activate',
      probability: '0.5',
      ms: '',
      jitterMs: '',
      retryAfterS: '1'
    })
    expect(ruleOf(limited).rule).toEqual({
      method: 'POST',
      route: '/api/license/v1/activate',
      kind: 'rate_limit',
      retryAfterS: 1,
      probability: 0.5
    })
    expect(withKind(limited, 'error')).toMatchObject({ status: '503', retryAfterS: '', ms: '' })
    expect(withKind(limited, 'rate_limit')).toBe(limited)
  })

  it('states every effect in the summary, a wait before the answer included', () => {
    expect(describeRule({ route: '/x', kind: 'rate_limit', ms: 1500, retryAfterS: 2 })).toBe(
      'Any method /x → answers 429 after 1500 ms, Retry-After 2 s'
    )
    expect(describeRule({ route: '/x', kind: 'rate_limit' })).toBe('Any method /x → answers 429, Retry-After 1 s')
    expect(describeRule({ route: '/x', kind: 'error', status: 500, ms: 300, jitterMs: 100 })).toBe(
      'Any method /x → answers 500 after 300 ms ± 100'
    )
    expect(describeRule({ route: '/x', kind: 'offline', ms: 50 })).toBe(
      'Any method /x → drops the connection after 50 ms'
    )
  })

  for (const kind of FAULT_KINDS) {
    it(`${kind}: offers the fields the contract's table gives the kind, and states what the server does with empty ones`, () => {
      expect(fieldsOf(kind)).toMatchObject({
        status: FAULT_KIND_FIELDS[kind].status,
        retryAfterS: FAULT_KIND_FIELDS[kind].retryAfterS
      })
      expect(
        ruleOf(newDraft({ kind, route: '/x', ms: '100', jitterMs: '10', status: '', retryAfterS: '' })).rule
      ).toMatchObject({ ms: 100, jitterMs: 10 })
      const bare = ruleOf(newDraft({ kind, route: '/x', ms: '', jitterMs: '', status: '', retryAfterS: '' })).rule
      if (!bare) throw new Error('an empty row of a kind is a valid rule')
      const resolved = resolveFaultFields(bare)
      expect(placeholdersOf(kind).ms).toBe(String(resolved.ms ?? 0))
      if (resolved.status !== null) expect(describeRule(bare)).toContain(`answers ${resolved.status}`)
      if (resolved.retryAfterS !== null) expect(describeRule(bare)).toContain(`Retry-After ${resolved.retryAfterS} s`)
      if (resolved.ms !== null) expect(describeRule(bare)).toContain(`${resolved.ms} ms`)
    })
  }
})
