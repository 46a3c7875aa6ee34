import { describe, expect, it } from 'vitest'

import { createFaultRules } from '../../src/core/faults/fault-rules'
import { FAULT_DEFAULTS, FAULT_KINDS, resolveFaultFields } from '../../src/shared/contract/faults'

// One table of which fields a fault kind takes and what an absent one means (src/shared/contract/
// faults.ts): the server stores by it here; the editor offers and describes by it
// (test/unit/renderer/fault-draft.test.ts).
describe('fault kinds: the shared table the server stores by', () => {
  it('resolves the absent fields of each kind to the contract defaults', () => {
    expect(resolveFaultFields({ kind: 'latency' })).toEqual({
      ms: FAULT_DEFAULTS.ms,
      jitterMs: null,
      status: null,
      retryAfterS: null
    })
    expect(resolveFaultFields({ kind: 'trickle' })).toEqual({
      ms: FAULT_DEFAULTS.ms,
      jitterMs: null,
      status: null,
      retryAfterS: null
    })
    expect(resolveFaultFields({ kind: 'error' })).toEqual({
      ms: null,
      jitterMs: null,
      status: FAULT_DEFAULTS.errorStatus,
      retryAfterS: null
    })
    expect(resolveFaultFields({ kind: 'rate_limit' })).toEqual({
      ms: null,
      jitterMs: null,
      status: null,
      retryAfterS: FAULT_DEFAULTS.retryAfterS
    })
    expect(resolveFaultFields({ kind: 'offline', ms: 5, jitterMs: 2 })).toEqual({
      ms: 5,
      jitterMs: 2,
      status: null,
      retryAfterS: null
    })
    // A field of another kind is not carried over.
    expect(resolveFaultFields({ kind: 'latency', status: 500, retryAfterS: 9 })).toMatchObject({
      status: null,
      retryAfterS: null
    })
  })

  for (const kind of FAULT_KINDS) {
    it(`${kind}: stores what the table resolves, and takes a wait with jitter`, () => {
      const [bare] = createFaultRules().replace([{ route: '/x', kind }])
      expect(bare).toMatchObject(resolveFaultFields({ kind }))
      const [timed] = createFaultRules().replace([{ route: '/x', kind, ms: 100, jitterMs: 10 }])
      expect(timed).toMatchObject({ ms: 100, jitterMs: 10 })
    })
  }

  it('refuses a field of another kind', () => {
    expect(() => createFaultRules().replace([{ route: '/x', kind: 'latency', status: 500 }])).toThrow(
      /applies only to kind "error"/
    )
    expect(() => createFaultRules().replace([{ route: '/x', kind: 'error', retryAfterS: 5 }])).toThrow(
      /applies only to kind "rate_limit"/
    )
  })
})
