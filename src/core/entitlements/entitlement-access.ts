import type { Clock } from '../clock/clock'
import type { CommerceRepository, Order } from '../commerce/commerce-repository'
import { DomainError } from '../errors/domain-error'
import { judgeLicense } from '../licensing/license-judgement'
import type { License, LicenseRepository } from '../licensing/license-repository'
import type { ProductService } from '../products/products'
import type { GracePeriod } from '../subscriptions/grace-period'
import { subscriptionStanding } from '../subscriptions/subscription-lifecycle'
import type { SubscriptionStanding } from '../subscriptions/subscription-lifecycle'

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
  return !LAPSED.has(
    judgeLicense({ license: facts.license, subscription: facts.subscription, productId: facts.license.productId, now })
  )
}

export interface EntitlementAccess {
  /**
   * Throws ENTITLEMENT_REQUIRED unless one of the customer's entitlements to the product grants
   * downloads now. `vendorId` (a vendor library or download token) admits that developer's products only.
   */
  requireDownload(customerId: string, productId: string, vendorId?: string | null): void
}

export function createEntitlementAccess(deps: {
  clock: Clock
  commerce: CommerceRepository
  products: ProductService
  licenses: LicenseRepository
  grace: GracePeriod
}): EntitlementAccess {
  const { clock, commerce, products, licenses, grace } = deps

  return {
    requireDownload(customerId, productId, vendorId = null) {
      if (vendorId !== null && products.find(productId)?.developerId !== vendorId) {
        throw new DomainError(
          'ENTITLEMENT_REQUIRED',
          "This token is narrowed to another vendor's products: it does not reach this file."
        )
      }
      const now = clock.now()
      const sources = commerce.liveEntitlementSources(customerId, productId)
      const granted = sources.some((source) => {
        const license = licenses.firstOfEntitlement(source.id)
        const subscription = license?.subscriptionId ? licenses.subscription(license.subscriptionId) : null
        return entitlementGrants(
          {
            orderStatus: source.orderStatus,
            license,
            subscription: subscription ? subscriptionStanding(subscription, now, grace.ms()) : null
          },
          now
        )
      })
      if (granted) return
      throw new DomainError(
        'ENTITLEMENT_REQUIRED',
        sources.length === 0
          ? 'This account has no entitlement to the product of this file.'
          : 'This account no longer has a live entitlement to the product of this file: what granted it was revoked, refunded or has expired.'
      )
    }
  }
}
