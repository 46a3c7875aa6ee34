import type { OrderReversal } from '../../shared/contract/orders'
import type { Clock } from '../clock/clock'
import { DomainError } from '../errors/domain-error'
import type { License, LicenseRepository, Subscription } from '../licensing/license-repository'
import { shownId } from '../redaction/shown-id'
import type { Store } from '../store/store'
import type { CommerceRepository, Entitlement, Order, OrderStatus } from './commerce-repository'

const STATUS_OF: Record<OrderReversal, Exclude<OrderStatus, 'paid'>> = { refund: 'refunded', chargeback: 'chargeback' }

export interface OrderReversalResult {
  order: Order
  /**
   * What the order granted. Kept as they are: an entitlement follows what granted it, so a
   * reversed order ends them (the library lists the product with `entitled: false`).
   */
  entitlements: Entitlement[]
  licenses: License[]
  /** A subscription the order paid for, ended now. */
  subscriptions: Subscription[]
  /** False when the order already stood so (the call is idempotent). */
  changed: boolean
}

export interface OrderReversals {
  /**
   * Refunds or charges back a paid order: everything it granted ends now. Its entitlements no
   * longer grant downloads (they follow the order), its licenses are revoked (activate and
   * validate answer REVOKED) and a subscription it paid for ends. Idempotent for the same reversal; 409 for the other one.
   */
  reverse(orderId: string, reversal: OrderReversal): OrderReversalResult
}

export function createOrderReversals(deps: {
  store: Store
  clock: Clock
  commerce: CommerceRepository
  licenses: LicenseRepository
}): OrderReversals {
  const { store, clock, commerce, licenses } = deps

  const granted = (order: Order) => {
    const entitlements = commerce
      .itemsOfOrder(order.id)
      .map((item) => commerce.entitlementOfItem(item.id))
      .filter((entitlement): entitlement is Entitlement => entitlement !== null)
    const ids = new Set(entitlements.map((entitlement) => entitlement.id))
    const licensed =
      order.customerId === null
        ? []
        : licenses
            .forCustomer(order.customerId)
            .filter((license) => license.entitlementId !== null && ids.has(license.entitlementId))
    return { entitlements, licenses: licensed }
  }

  return {
    reverse(orderId, reversal) {
      return store.transaction(() => {
        const order = commerce.order(orderId)
        if (!order) throw new DomainError('ORDER_NOT_FOUND', `No order has the id ${shownId(orderId, 'ord')}.`)
        const status = STATUS_OF[reversal]
        if (order.status !== 'paid' && order.status !== status) {
          throw new DomainError(
            'ORDER_STATE_CONFLICT',
            `Cannot ${reversal === 'refund' ? 'refund' : 'charge back'} this order: it was ${describe(order.status)} already.`,
            {
              details: { state: order.status }
            }
          )
        }
        const changed = order.status === 'paid'
        const now = clock.nowIso()
        const before = granted(order)
        const ended: Subscription[] = []
        if (changed) {
          commerce.reverseOrder(order.id, status, now)
          for (const license of before.licenses) {
            licenses.update(license.id, { status: 'revoked' })
            const subscription = license.subscriptionId ? licenses.subscription(license.subscriptionId) : null
            if (subscription) {
              // Ended now, as a subscription cancelled at a period end that is now.
              const end =
                Date.parse(subscription.currentPeriodEnd) > Date.parse(now) ? now : subscription.currentPeriodEnd
              const updated: Subscription = {
                ...subscription,
                status: 'canceled',
                cancelAtPeriodEnd: true,
                canceledAt: now,
                currentPeriodEnd: end
              }
              licenses.updateSubscription(updated)
              ended.push(updated)
            }
          }
        } else {
          for (const license of before.licenses) {
            const subscription = license.subscriptionId ? licenses.subscription(license.subscriptionId) : null
            if (subscription) ended.push(subscription)
          }
        }
        const after = granted(commerce.order(order.id) as Order)
        return {
          order: commerce.order(order.id) as Order,
          entitlements: after.entitlements,
          licenses: after.licenses,
          subscriptions: ended,
          changed
        }
      })
    }
  }
}

function describe(status: OrderStatus): string {
  return status === 'chargeback' ? 'charged back' : status
}
