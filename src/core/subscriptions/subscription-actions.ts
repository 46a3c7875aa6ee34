import { SUBSCRIPTION_ACTIONS } from '../../shared/contract/subscriptions'
import type { SubscriptionAction } from '../../shared/contract/subscriptions'
import type { SubscriptionStanding } from './subscription-lifecycle'

/**
 * What an action does to a subscription as it stands: `changes` it, leaves it `unchanged` (it is
 * in effect already, so repeating it is idempotent), or is a `conflict` with the state (409),
 * with a hint at what would work instead.
 */
export type ActionOutcome = { kind: 'changes' } | { kind: 'unchanged' } | { kind: 'conflict'; hint: string }

const CHANGES: ActionOutcome = { kind: 'changes' }
const UNCHANGED: ActionOutcome = { kind: 'unchanged' }
const conflict = (hint: string): ActionOutcome => ({ kind: 'conflict', hint })

/** The one rule for which action applies when: the service acts by it and the control plane offers by it. */
export function actionOutcome(standing: SubscriptionStanding, action: SubscriptionAction): ActionOutcome {
  const active = standing.state === 'active'
  switch (action) {
    case 'renew-now':
      // Charged now, successfully: works from any state (it also restarts an ended one).
      return CHANGES
    case 'cancel':
      if (!active) return conflict('Only an active subscription can be cancelled; renew now starts a new one.')
      return standing.cancelAtPeriodEnd ? UNCHANGED : CHANGES
    case 'resume':
      if (!active)
        return conflict('Only a subscription set to cancel at its period end can resume; renew now starts a new one.')
      return standing.cancelAtPeriodEnd ? CHANGES : UNCHANGED
    case 'payment-fails':
      if (standing.state === 'past_due') return UNCHANGED
      if (!active || standing.cancelAtPeriodEnd)
        return conflict('Only a renewing subscription is charged; resume or renew now first.')
      return CHANGES
    case 'payment-succeeds':
      if (active) return UNCHANGED
      if (standing.state !== 'past_due') return conflict('Renew now starts a new paid period.')
      return CHANGES
  }
}

/** The actions the control plane accepts now (200): those that change the subscription and those already in effect. */
export function availableActions(standing: SubscriptionStanding): SubscriptionAction[] {
  return SUBSCRIPTION_ACTIONS.filter((action) => actionOutcome(standing, action).kind !== 'conflict')
}
