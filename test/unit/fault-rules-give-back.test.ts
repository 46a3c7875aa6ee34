import { describe, expect, it } from 'vitest'

import { createFaultRules } from '../../src/core/faults/fault-rules'

// An `after` rule that found no upstream answer gives its call back (docs/upstream.md "Fault stages").
describe('giving a counted call back', () => {
  const after = { route: '/api/library', kind: 'error' as const, stage: 'after' as const }

  it('brings a rule it retired back where it stood, once', () => {
    const rules = createFaultRules()
    rules.replace([
      { id: 'first', ...after, times: 1 },
      { id: 'second', route: '/api/**', kind: 'latency', ms: 10 }
    ])
    const hit = rules.pick('GET', '/api/library')
    expect(hit?.rule.id).toBe('first')
    expect(rules.list().map((rule) => rule.id)).toEqual(['second'])
    rules.giveBack(hit!)
    expect(rules.list().map((rule) => [rule.id, rule.times])).toEqual([
      ['first', 1],
      ['second', null]
    ])
    rules.giveBack(hit!)
    expect(rules.list()[0]?.times).toBe(1)
  })

  it('adds the call back to a rule still in force', () => {
    const rules = createFaultRules()
    rules.replace([{ id: 'thrice', ...after, times: 3 }])
    const hit = rules.pick('GET', '/api/library')
    expect(rules.list()[0]?.times).toBe(2)
    rules.giveBack(hit!)
    expect(rules.list()[0]?.times).toBe(3)
  })

  it('revives nothing the client replaced or removed since', () => {
    const rules = createFaultRules()
    rules.replace([{ id: 'once', ...after, times: 1 }])
    const retired = rules.pick('GET', '/api/library')
    rules.replace([{ id: 'other', ...after, times: 2 }])
    rules.giveBack(retired!)
    expect(rules.list().map((rule) => [rule.id, rule.times])).toEqual([['other', 2]])

    const counted = rules.pick('GET', '/api/library')
    rules.remove('other')
    rules.giveBack(counted!)
    expect(rules.list()).toEqual([])
  })
})
