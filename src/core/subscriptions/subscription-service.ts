import type { SubscriptionAction } from '../../shared/contract/subscriptions'
import type { Clock } from '../clock/clock'
import { DomainError } from '../errors/domain-error'
import type { LicenseRepository, Subscription } from '../licensing/license-repository'
import { shownId } from '../redaction/shown-id'
import type { Store } from '../store/store'
import type { GracePeriod } from './grace-period'
import { actionOutcome, availableActions } from './subscription-actions'
import { periodMs, subscriptionStanding } from './subscription-lifecycle'
import type { SubscriptionStanding } from './subscription-lifecycle'

export interface SubscriptionWithStanding {
  subscription: Subscription
  standing: SubscriptionStanding
  /** The QA actions the control plane accepts now (see subscription-actions.ts). */
  availableActions: SubscriptionAction[]
}

export interface SubscriptionService {
  require(id: string): SubscriptionWithStanding
  act(id: string, action: SubscriptionAction): SubscriptionWithStanding
}

/**
 * Each action first settles the renewals the clock has passed (so it acts on the subscription
 * as it stands now), then writes the new stored state; the lifecycle walks on from there.
 */
export function createSubscriptionService(deps: {
  store: Store
  clock: Clock
  licenses: LicenseRepository
  grace: GracePeriod
}): SubscriptionService {
  const { store, clock, licenses, grace } = deps

  const withStanding = (subscription: Subscription): SubscriptionWithStanding => {
    const standing = subscriptionStanding(subscription, clock.now(), grace.ms())
    return { subscription, standing, availableActions: availableActions(standing) }
  }

  function find(id: string): Subscription {
    const subscription = licenses.subscription(id)
    if (!subscription)
      throw new DomainError('SUBSCRIPTION_NOT_FOUND', `No subscription has the id ${shownId(id, 'sub')}.`)
    return subscription
  }

  /** The next stored state, or null when the action changes nothing (it is idempotent there). */
  function next(
    current: Subscription,
    standing: SubscriptionStanding,
    action: SubscriptionAction,
    now: Date
  ): Subscription | null {
    const outcome = actionOutcome(standing, action)
    if (outcome.kind === 'unchanged') return null
    if (outcome.kind === 'conflict') {
      throw new DomainError(
        'SUBSCRIPTION_STATE_CONFLICT',
        `Cannot ${action.replace('-', ' ')}: the subscription is ${describe(standing)}. ${outcome.hint}`,
        {
          details: { state: standing.state }
        }
      )
    }
    const nowIso = now.toISOString()
    // The renewals the clock has passed, written down before anything else changes.
    const settled: Subscription = { ...current, currentPeriodEnd: standing.currentPeriodEnd }
    switch (action) {
      case 'renew-now':
        // Charged now, successfully: a fresh paid period from now, whatever came before.
        return {
          ...settled,
          status: 'active',
          currentPeriodEnd: new Date(now.getTime() + periodMs(current.plan)).toISOString(),
          cancelAtPeriodEnd: false,
          canceledAt: null,
          paymentFailedAt: null
        }
      case 'cancel':
        return { ...settled, status: 'active', cancelAtPeriodEnd: true, canceledAt: nowIso }
      case 'resume':
        return { ...settled, status: 'active', cancelAtPeriodEnd: false, canceledAt: null }
      case 'payment-fails':
        // The renewal charge fails now: the paid period closes here and the grace period starts.
        return { ...settled, status: 'past_due', currentPeriodEnd: nowIso, paymentFailedAt: nowIso }
      case 'payment-succeeds':
        // Paid late: the period that failed is paid, and renewals continue from it.
        return { ...settled, status: 'active', paymentFailedAt: null }
    }
  }

  return {
    require: (id) => withStanding(find(id)),
    act(id, action) {
      return store.transaction(() => {
        const current = find(id)
        const now = clock.now()
        const changed = next(current, subscriptionStanding(current, now, grace.ms()), action, now)
        if (!changed) return withStanding(current)
        licenses.updateSubscription(changed)
        return withStanding(find(id))
      })
    }
  }
}

function describe(standing: SubscriptionStanding): string {
  if (standing.state === 'active')
    return standing.cancelAtPeriodEnd ? 'active and set to cancel at its period end' : 'active and renewing'
  if (standing.state === 'past_due') return `past_due (grace until ${standing.graceUntil})`
  return `${standing.state} since ${standing.endedAt}`
}
