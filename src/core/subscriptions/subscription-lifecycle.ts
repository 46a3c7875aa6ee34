import type { SubscriptionState } from '../../shared/contract/subscriptions'
import type { Subscription } from '../licensing/license-repository'

const DAY_MS = 24 * 60 * 60 * 1000

/** The length of one paid period of a plan. */
export function periodMs(plan: Subscription['plan']): number {
  return (plan === 'yearly' ? 365 : 30) * DAY_MS
}

/** The grace period a past_due subscription gets when nobody changed the setting. */
export const DEFAULT_GRACE_DAYS = 7

/** A subscription as it stands at one instant of the emulator clock. */
export interface SubscriptionStanding {
  state: SubscriptionState
  /** The end of the current paid period, after every renewal the clock has passed. */
  currentPeriodEnd: string
  /** When it renews next (null when it will not: cancelling, past_due or ended). */
  renewsAt: string | null
  cancelAtPeriodEnd: boolean
  /** While past_due: when access ends unless a payment succeeds. */
  graceUntil: string | null
  /** When it stopped granting access (canceled or expired); null while it grants. */
  endedAt: string | null
  /** Whether it grants access now: active, or past_due within its grace period. */
  live: boolean
  /** Until when access holds with no further event: the period end, the grace end, or when it ended. */
  accessUntil: string
}

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * Walks a subscription along the emulator clock, computed on read from what is stored: an
 * active subscription renews at each period end unless set to cancel, in which case it ends
 * there; a past_due one keeps access for the grace period from its failed payment, then expires.
 * Nothing is written, so moving the clock either way walks the states.
 */
export function subscriptionStanding(subscription: Subscription, now: Date, graceMs: number): SubscriptionStanding {
  const nowMs = now.getTime()
  const storedEnd = Date.parse(subscription.currentPeriodEnd)

  if (subscription.status === 'past_due') {
    // An imported past_due row without the failure time failed at its period end.
    const failedAt = subscription.paymentFailedAt === null ? storedEnd : Date.parse(subscription.paymentFailedAt)
    const graceEnd = failedAt + graceMs
    const inGrace = nowMs < graceEnd
    return {
      state: inGrace ? 'past_due' : 'expired',
      currentPeriodEnd: subscription.currentPeriodEnd,
      renewsAt: null,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      graceUntil: iso(graceEnd),
      endedAt: inGrace ? null : iso(graceEnd),
      live: inGrace,
      accessUntil: iso(graceEnd)
    }
  }

  // A row stored as `canceled` (imported) behaves as cancelled at its period end.
  if (subscription.cancelAtPeriodEnd || subscription.status === 'canceled') {
    const running = nowMs < storedEnd
    return {
      state: running ? 'active' : 'canceled',
      currentPeriodEnd: subscription.currentPeriodEnd,
      renewsAt: null,
      cancelAtPeriodEnd: true,
      graceUntil: null,
      endedAt: running ? null : subscription.currentPeriodEnd,
      live: running,
      accessUntil: subscription.currentPeriodEnd
    }
  }

  let end = subscription.currentPeriodEnd
  if (nowMs >= storedEnd) {
    const period = periodMs(subscription.plan)
    end = iso(storedEnd + (Math.floor((nowMs - storedEnd) / period) + 1) * period)
  }
  return {
    state: 'active',
    currentPeriodEnd: end,
    renewsAt: end,
    cancelAtPeriodEnd: false,
    graceUntil: null,
    endedAt: null,
    live: true,
    accessUntil: end
  }
}
