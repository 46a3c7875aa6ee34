import { describe, expect, it } from 'vitest'

import { actionOutcome, availableActions } from '../../src/core/subscriptions/subscription-actions'
import type { SubscriptionStanding } from '../../src/core/subscriptions/subscription-lifecycle'

const at = '2031-01-01T00:00:00.000Z'
const standing = (state: SubscriptionStanding['state'], cancelAtPeriodEnd = false): SubscriptionStanding => ({
  state,
  currentPeriodEnd: at,
  renewsAt: null,
  cancelAtPeriodEnd,
  graceUntil: null,
  endedAt: null,
  live: state === 'active' || state === 'past_due',
  accessUntil: at
})

describe('which subscription action applies when', () => {
  it('offers what changes the subscription and what is in effect already, never a conflict', () => {
    expect(availableActions(standing('active'))).toEqual([
      'renew-now',
      'cancel',
      'resume',
      'payment-fails',
      'payment-succeeds'
    ])
    expect(availableActions(standing('active', true))).toEqual(['renew-now', 'cancel', 'resume', 'payment-succeeds'])
    expect(availableActions(standing('past_due'))).toEqual(['renew-now', 'payment-fails', 'payment-succeeds'])
    expect(availableActions(standing('canceled'))).toEqual(['renew-now'])
    expect(availableActions(standing('expired'))).toEqual(['renew-now'])
  })

  it('tells a change from a repeat and a conflict', () => {
    expect(actionOutcome(standing('active'), 'cancel')).toEqual({ kind: 'changes' })
    expect(actionOutcome(standing('active', true), 'cancel')).toEqual({ kind: 'unchanged' })
    expect(actionOutcome(standing('active', true), 'resume')).toEqual({ kind: 'changes' })
    expect(actionOutcome(standing('past_due'), 'payment-succeeds')).toEqual({ kind: 'changes' })
    expect(actionOutcome(standing('canceled'), 'resume')).toMatchObject({
      kind: 'conflict',
      hint: expect.stringContaining('renew now')
    })
    expect(actionOutcome(standing('active', true), 'payment-fails')).toMatchObject({
      kind: 'conflict',
      hint: expect.stringContaining('renewing')
    })
  })
})
