import { describe, expect, it } from 'vitest'

import { isDomainError } from '../../src/core/errors/domain-error'
import { createFaultRules, drawDelay } from '../../src/core/faults/fault-rules'
import type { FaultRuleInput } from '../../src/core/faults/fault-rules'
import { compileRoutePattern, normalizePath, routePatternProblem } from '../../src/core/faults/route-pattern'
import { tricklePlan } from '../../src/core/faults/trickle'
import { faultOf } from '../../src/core/inspector/redact-exchange'

/** A random source that plays back fixed values, then repeats the last one. */
function sequence(...values: number[]): () => number {
  let next = 0
  return () => values[Math.min(next++, values.length - 1)] as number
}

function codeOf(action: () => unknown): string | undefined {
  try {
    action()
  } catch (error) {
    return isDomainError(error) ? error.code : 'not a DomainError'
  }
  return undefined
}

describe('route patterns', () => {
  it('matches a literal path exactly, ignoring the query and a trailing slash', () => {
    const matches = compileRoutePattern('/api/license/v1/activate')
    expect(matches('/api/license/v1/activate')).toBe(true)
    expect(matches('/api/license/v1/activate?x=1')).toBe(true)
    expect(matches('/api/license/v1/activate/')).toBe(true)
    expect(matches('/api/license/v1/activated')).toBe(false)
    expect(matches('/api/license/v1')).toBe(false)
    expect(matches('/API/license/v1/activate')).toBe(false)
  })

  it('`*` matches within one segment only', () => {
    const matches = compileRoutePattern('/api/license/v1/*')
    expect(matches('/api/license/v1/activate')).toBe(true)
    expect(matches('/api/license/v1/validate')).toBe(true)
    expect(matches('/api/license/v1/a/b')).toBe(false)
    expect(matches('/api/license/v2/activate')).toBe(false)

    const partial = compileRoutePattern('/api/license/v1/*ate')
    expect(partial('/api/license/v1/activate')).toBe(true)
    expect(partial('/api/license/v1/deactivate')).toBe(true)
    expect(partial('/api/license/v1/public-key')).toBe(false)
  })

  it('`**` matches across segments, and a whole `**` segment also matches none', () => {
    const matches = compileRoutePattern('/api/**')
    expect(matches('/api/license/v1/activate')).toBe(true)
    expect(matches('/api/library')).toBe(true)
    expect(matches('/api')).toBe(true)
    expect(matches('/apis/x')).toBe(false)
    expect(matches('/.well-known/jwks.json')).toBe(false)

    const middle = compileRoutePattern('/api/**/activate')
    expect(middle('/api/license/v1/activate')).toBe(true)
    expect(middle('/api/activate')).toBe(true)
    expect(middle('/api/license/v1/validate')).toBe(false)

    const everything = compileRoutePattern('**')
    expect(everything('/')).toBe(true)
    expect(everything('/anything/at/all')).toBe(true)
  })

  it('`*` and `**` differ on a nested path', () => {
    expect(compileRoutePattern('/api/*')('/api/license/v1/activate')).toBe(false)
    expect(compileRoutePattern('/api/**')('/api/license/v1/activate')).toBe(true)
  })

  it('takes regular-expression characters literally', () => {
    const matches = compileRoutePattern('/.well-known/jwks.json')
    expect(matches('/.well-known/jwks.json')).toBe(true)
    expect(matches('/xwell-known/jwksxjson')).toBe(false)
    expect(compileRoutePattern('/a+b/(c)')('/a+b/(c)')).toBe(true)
  })

  it('decodes escapes of ordinary characters as the router does, but not an encoded slash', () => {
    expect(normalizePath('/api/licen%73e/v1?q=1#f')).toBe('/api/license/v1')
    expect(normalizePath('/a%2Fb')).toBe('/a%2Fb')
    expect(normalizePath('/bad%zz')).toBe('/bad%zz')
    expect(compileRoutePattern('/api/*')('/api/a%2Fb')).toBe(true)
  })

  it('refuses patterns that are not paths', () => {
    expect(routePatternProblem('/api/**')).toBeNull()
    expect(routePatternProblem('**')).toBeNull()
    expect(routePatternProblem('api/x')).not.toBeNull()
    expect(routePatternProblem('/api?x=1')).not.toBeNull()
    expect(routePatternProblem('/a b')).not.toBeNull()
    expect(routePatternProblem('/api/***')).not.toBeNull()
    expect(routePatternProblem('/api/lic**')).toMatch(/whole segment/)
    expect(() => compileRoutePattern('api')).toThrow()
  })

  it('takes glob syntax other than `*` and `**` literally (braces, brackets, extglobs, negation)', () => {
    for (const path of ['/x/{a,b}', '/x/[a]', '/x/!a', '/x/@(a)', '/x/+(a)']) {
      expect(compileRoutePattern(path)(path)).toBe(true)
    }
    expect(compileRoutePattern('/x/{a,b}')('/x/a')).toBe(false)
    expect(compileRoutePattern('/x/[ab]')('/x/a')).toBe(false)
  })
})

describe('fault rules', () => {
  it('stores rules with ids, upper-cased methods and defaults resolved', () => {
    const faults = createFaultRules()
    const stored = faults.replace([
      { route: '/a', kind: 'error' },
      { route: '/b', kind: 'rate_limit', method: 'post' },
      { route: '/c', kind: 'latency' },
      { route: '/d', kind: 'offline', probability: 0.5 },
      { route: '/e', kind: 'trickle', ms: 50, jitterMs: 10 }
    ])
    expect(stored.map((rule) => rule.id.startsWith('flt_'))).toEqual([true, true, true, true, true])
    expect(new Set(stored.map((rule) => rule.id)).size).toBe(5)
    expect(stored[0]).toMatchObject({ method: null, status: 503, probability: 1, retryAfterS: null, ms: null })
    expect(stored[1]).toMatchObject({ method: 'POST', status: null, retryAfterS: 1 })
    expect(stored[2]).toMatchObject({ ms: 1000, jitterMs: null })
    expect(stored[3]).toMatchObject({ probability: 0.5, ms: null })
    expect(stored[4]).toMatchObject({ ms: 50, jitterMs: 10 })
    expect(faults.list()).toEqual(stored)
  })

  it('takes a listed rule back unchanged (ids kept, nulls accepted)', () => {
    const faults = createFaultRules()
    const first = faults.replace([{ route: '/a/**', kind: 'error', status: 502 }])
    expect(faults.replace(first)).toEqual(first)
  })

  it('refuses fields of another kind, repeated ids and bad patterns, keeping the rules in force', () => {
    const faults = createFaultRules()
    const kept = faults.replace([{ route: '/keep', kind: 'latency', ms: 5 }])
    const bad: FaultRuleInput[][] = [
      [{ route: '/a', kind: 'latency', status: 500 }],
      [{ route: '/a', kind: 'error', retryAfterS: 3 }],
      [{ route: 'no-slash', kind: 'error' }],
      [{ route: '/a', kind: 'error', probability: 1.5 }],
      [{ route: '/a', kind: 'error', method: 'GET POST' }],
      [
        { id: 'same', route: '/a', kind: 'error' },
        { id: 'same', route: '/b', kind: 'error' }
      ]
    ]
    for (const rules of bad) expect(codeOf(() => faults.replace(rules))).toBe('VALIDATION_ERROR')
    expect(faults.list()).toEqual(kept)
  })

  it('removes one rule by id, and says so when the id is unknown', () => {
    const faults = createFaultRules()
    const [a, b] = faults.replace([
      { route: '/a', kind: 'error' },
      { route: '/b', kind: 'error' }
    ])
    expect(faults.remove(a!.id).route).toBe('/a')
    expect(faults.list()).toEqual([b])
    expect(codeOf(() => faults.remove(a!.id))).toBe('FAULT_RULE_NOT_FOUND')
    faults.clear()
    expect(faults.list()).toEqual([])
  })

  it('picks by method (any case) and route; the first matching rule decides', () => {
    const faults = createFaultRules({ random: sequence(0) })
    faults.replace([
      { route: '/api/license/v1/activate', kind: 'error', status: 500, method: 'post' },
      { route: '/api/**', kind: 'rate_limit' }
    ])
    expect(faults.pick('POST', '/api/license/v1/activate')?.rule.kind).toBe('error')
    expect(faults.pick('post', '/api/license/v1/activate')?.rule.kind).toBe('error')
    // GET skips the POST-only rule and reaches the next one.
    expect(faults.pick('GET', '/api/license/v1/activate')?.rule.kind).toBe('rate_limit')
    expect(faults.pick('GET', '/.well-known/jwks.json')).toBeNull()
  })

  it('fires with the rule probability against the random source', () => {
    const faults = createFaultRules({ random: sequence(0.29, 0.3, 0.99, 0) })
    faults.replace([{ route: '/x', kind: 'error', probability: 0.3 }])
    expect(faults.pick('GET', '/x')).not.toBeNull() // 0.29 < 0.3
    expect(faults.pick('GET', '/x')).toBeNull() // 0.3 is not below 0.3
    expect(faults.pick('GET', '/x')).toBeNull()
    expect(faults.pick('GET', '/x')).not.toBeNull()
  })

  it('never fires at probability 0 and always at 1, whatever the draw', () => {
    const draws = [0, 0.000001, 0.5, 0.999999]
    const never = createFaultRules({ random: sequence(...draws) })
    never.replace([{ route: '**', kind: 'offline', probability: 0 }])
    const always = createFaultRules({ random: sequence(...draws) })
    always.replace([{ route: '**', kind: 'offline', probability: 1 }])
    for (const _ of draws) {
      expect(never.pick('GET', '/any')).toBeNull()
      expect(always.pick('GET', '/any')).not.toBeNull()
    }
  })

  it('does not fall through to a later rule when the first match does not fire', () => {
    const faults = createFaultRules({ random: sequence(0.9) })
    faults.replace([
      { route: '/x', kind: 'error', probability: 0.5 },
      { route: '**', kind: 'rate_limit' }
    ])
    expect(faults.pick('GET', '/x')).toBeNull()
    expect(faults.pick('GET', '/y')?.rule.kind).toBe('rate_limit')
  })

  it('draws the delay as ms ± jitterMs from the same source, never below zero', () => {
    expect(drawDelay(100, 0, sequence(0.7))).toBe(100)
    expect(drawDelay(100, 20, sequence(0))).toBe(80)
    expect(drawDelay(100, 20, sequence(0.5))).toBe(100)
    expect(drawDelay(100, 20, sequence(0.999999))).toBe(120)
    expect(drawDelay(10, 50, sequence(0))).toBe(0)

    // First draw decides firing, the second the jitter.
    const faults = createFaultRules({ random: sequence(0, 0.75) })
    faults.replace([{ route: '/x', kind: 'latency', ms: 40, jitterMs: 20 }])
    expect(faults.pick('GET', '/x')?.delayMs).toBe(50)
  })

  it('the next N calls: a rule with times fires that many times, then retires itself', () => {
    let changes = 0
    const faults = createFaultRules({ random: sequence(0), onChange: () => changes++ })
    faults.replace([
      { route: '/x', kind: 'error', times: 2 },
      { route: '/x', kind: 'rate_limit' }
    ])
    expect(faults.pick('GET', '/x')?.rule).toMatchObject({ kind: 'error', times: 2 })
    expect(faults.list()[0]).toMatchObject({ kind: 'error', times: 1 })
    expect(faults.pick('GET', '/x')?.rule.kind).toBe('error')
    // Retired: the next call reaches the rule after it, and the list no longer holds it.
    expect(faults.pick('GET', '/x')?.rule.kind).toBe('rate_limit')
    expect(faults.list().map((rule) => rule.kind)).toEqual(['rate_limit'])
    expect(changes).toBe(3)
    // A call that the roll spares is not counted.
    const spared = createFaultRules({ random: sequence(0.9, 0) })
    spared.replace([{ route: '/x', kind: 'error', times: 1, probability: 0.5 }])
    expect(spared.pick('GET', '/x')).toBeNull()
    expect(spared.list()[0]!.times).toBe(1)
    expect(spared.pick('GET', '/x')).not.toBeNull()
    expect(spared.list()).toEqual([])
    for (const times of [0, -1, 1.5])
      expect(codeOf(() => faults.replace([{ route: '/x', kind: 'error', times }]))).toBe('VALIDATION_ERROR')
  })

  it("a match on a body field faults one customer's calls and lets the rest through", () => {
    const faults = createFaultRules({ random: sequence(0) })
    faults.replace([
      { route: '/api/license/v1/*', kind: 'error', match: { field: 'license_key', equals: 'KEY-A' } },
      { route: '/api/license/v1/deactivate', kind: 'rate_limit' }
    ])
    const body: Record<string, unknown> = { license_key: 'KEY-A', instance: { id: 'mac-1' } }
    const fields = (field: string) => {
      let value: unknown = body
      for (const name of field.split('.')) value = (value as Record<string, unknown> | undefined)?.[name]
      return typeof value === 'string' ? value : undefined
    }
    // The body decides: before it is read the rule waits for it.
    expect(faults.waitsForBody('POST', '/api/license/v1/validate')).toBe(true)
    expect(faults.waitsForBody('POST', '/api/plugin-connections/verify')).toBe(false)
    expect(faults.pick('POST', '/api/license/v1/validate', fields)?.rule.kind).toBe('error')
    body.license_key = 'KEY-B'
    expect(faults.pick('POST', '/api/license/v1/validate', fields)).toBeNull()
    // Not matched: later rules still decide.
    expect(faults.pick('POST', '/api/license/v1/deactivate', fields)?.rule.kind).toBe('rate_limit')
    faults.replace([{ route: '/x', kind: 'offline', match: { field: 'instance.id', equals: 'mac-1' } }])
    expect(faults.pick('POST', '/x', fields)?.rule.kind).toBe('offline')
    expect(faults.list()[0]!.match).toEqual({ field: 'instance.id', equals: 'mac-1' })
    for (const match of [
      { field: '', equals: 'x' },
      { field: 'a b', equals: 'x' },
      { field: 'a', equals: 'x'.repeat(501) }
    ])
      expect(codeOf(() => faults.replace([{ route: '/x', kind: 'error', match }]))).toBe('VALIDATION_ERROR')
  })

  it('lists copies: changing one does not change the rules in force', () => {
    const faults = createFaultRules()
    faults.replace([{ route: '/x', kind: 'error' }])
    const listed = faults.list()
    listed[0]!.route = '/changed'
    expect(faults.list()[0]!.route).toBe('/x')
  })
})

describe("the inspector's fault label", () => {
  it('states the probability, the match and the calls left, not only the route', () => {
    const faults = createFaultRules({ random: sequence(0) })
    faults.replace([
      {
        id: 'one-customer',
        method: 'POST',
        route: '/api/license/v1/validate',
        kind: 'error',
        status: 502,
        probability: 0.3,
        times: 3,
        match: { field: 'license_key', equals: 'KEY-A' }
      }
    ])
    const hit = faults.pick('POST', '/api/license/v1/validate', () => 'KEY-A')
    expect(faultOf(hit?.rule)?.label).toBe(
      'error POST /api/license/v1/validate (status 502), 30% of calls, only license_key = KEY-A, 2 more calls left'
    )
  })
})

describe('trickle plan', () => {
  it('cuts a small body into small pieces spread over the time', () => {
    expect(tricklePlan(640, 90)).toEqual({ chunkBytes: 64, gapMs: 10 })
    expect(tricklePlan(10, 50)).toEqual({ chunkBytes: 5, gapMs: 50 })
  })

  it('caps the number of pieces for a large body', () => {
    const plan = tricklePlan(1_000_000, 990)
    expect(plan.chunkBytes).toBe(10_000)
    expect(plan.gapMs).toBe(10)
  })

  it('sends a one-byte body at once', () => {
    expect(tricklePlan(1, 50)).toEqual({ chunkBytes: 1, gapMs: 0 })
  })
})
