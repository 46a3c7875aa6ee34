import type { Store } from '../store/store'
import type { Clock } from '../clock/clock'
import { DomainError } from '../errors/domain-error'
import type { Entitlement, Order } from '../commerce/commerce-repository'
import type { License, LicenseRepository } from '../licensing/license-repository'
import { judgeLicense } from '../licensing/license-judgement'
import { subscriptionStanding } from '../subscriptions/subscription-lifecycle'
import type { SubscriptionStanding } from '../subscriptions/subscription-lifecycle'
import type { GracePeriod } from '../subscriptions/grace-period'

/** What decides whether one entitlement still grants its product: where it came from and what became of that. */
export interface EntitlementFacts {
  /** The status of the order its item belongs to; null for an entitlement with no order item. */
  orderStatus: Order['status'] | null
  /** The license granted with it (null when it has none, as some imported ones). */
  license: License | null
  /** That license's subscription, as it stands now. */
  subscription: SubscriptionStanding | null
}

/** License codes after which the license no longer grants downloads. Suspension is temporary and keeps them. */
const LAPSED = new Set(['REVOKED', 'EXPIRED', 'TRIAL_EXPIRED'])

/**
 * The rule of delivery: an entitlement grants downloads while what granted it lives. A refunded
 * or charged-back order, a revoked or expired license, a trial past its end and a subscription past its grace
 * period end it; the library and the download route both ask here.
 */
export function entitlementGrants(facts: EntitlementFacts, now: Date): boolean {
  if (facts.orderStatus === 'refunded' || facts.orderStatus === 'chargeback') return false
  if (!facts.license) return true
  return !LAPSED.has(judgeLicense({ license: facts.license, subscription: facts.subscription, productId: facts.license.productId, now }))
}

export interface EntitlementAccess {
  /**
   * Throws ENTITLEMENT_REQUIRED unless one of the customer's entitlements to the product grants
   * downloads now. `vendorId` (a vendor library or download token) admits that developer's products only.
   */
  requireDownload(customerId: string, productId: string, vendorId?: string | null): void
}

export function createEntitlementAccess(deps: { store: Store; clock: Clock; licenses: LicenseRepository; grace: GracePeriod }): EntitlementAccess {
  const { store, clock, licenses, grace } = deps
  const sources = store.db.prepare(
    `SELECT e.id, o.status AS order_status
       FROM entitlements e
       LEFT JOIN order_items i ON i.id = e.order_item_id
       LEFT JOIN orders o ON o.id = i.order_id
      WHERE e.customer_id = ? AND e.product_id = ? AND e.status = 'active'`
  )
  const developerOf = store.db.prepare('SELECT developer_id FROM products WHERE id = ?').pluck()
  const licenseOf = store.db.prepare('SELECT id FROM licenses WHERE entitlement_id = ? ORDER BY created_at, rowid LIMIT 1').pluck()

  return {
    requireDownload(customerId, productId, vendorId = null) {
      if (vendorId !== null && developerOf.get(productId) !== vendorId) {
        throw new DomainError('ENTITLEMENT_REQUIRED', "This token is narrowed to another vendor's products: it does not reach this file.")
      }
      const now = clock.now()
      const rows = sources.all(customerId, productId) as Array<Pick<Entitlement, 'id'> & { order_status: Order['status'] | null }>
      const granted = rows.some((row) => {
        const licenseId = licenseOf.get(row.id) as string | undefined
        const license = licenseId === undefined ? null : licenses.byId(licenseId)
        const subscription = license?.subscriptionId ? licenses.subscription(license.subscriptionId) : null
        return entitlementGrants(
          { orderStatus: row.order_status, license, subscription: subscription ? subscriptionStanding(subscription, now, grace.ms()) : null },
          now
        )
      })
      if (granted) return
      throw new DomainError(
        'ENTITLEMENT_REQUIRED',
        rows.length === 0
          ? 'This account has no entitlement to the product of this file.'
          : 'This account no longer has a live entitlement to the product of this file: what granted it was revoked, refunded or has expired.'
      )
    }
  }
}
