import type { LicenseKind } from '../../shared/contract/licensing'
import type { BillingPeriod } from '../../shared/contract/subscriptions'
import type { Clock } from '../clock/clock'
import { sha256Hex } from '../crypto/digest'
import { newId, randomBase62 } from '../crypto/random'
import type { SecretBox } from '../crypto/secret-box'
import type { CustomerService } from '../customers/customers'
import { DomainError } from '../errors/domain-error'
import { newLicenseKey } from '../licensing/license-keys'
import type { License, LicenseRepository, Subscription } from '../licensing/license-repository'
import type { ProductService } from '../products/products'
import type { Store } from '../store/store'
import { periodMs } from '../subscriptions/subscription-lifecycle'
import type { CommerceRepository, Entitlement, Order, OrderItem } from './commerce-repository'

const DAY_MS = 24 * 60 * 60 * 1000
/** Defaults a QA engineer can override per purchase. */
export const PURCHASE_DEFAULTS = {
  maxActivations: 2,
  trialDays: 14,
  priceCents: { perpetual: 9900, subscription: 999, trial: 0 } satisfies Record<LicenseKind, number>,
  currency: 'USD'
}

export interface PurchaseInput {
  customerId: string
  productId: string
  kind?: LicenseKind | undefined
  maxActivations?: number | undefined
  /** License expiry (perpetual, trial) or end of the first paid period (subscription). */
  expiresAt?: string | undefined
  plan?: BillingPeriod | undefined
  priceCents?: number | undefined
}

export interface PurchaseResult {
  order: Order
  item: OrderItem
  entitlement: Entitlement
  license: License
  subscription: Subscription | null
}

export interface ResellerOrderResult {
  order: Order
  item: OrderItem
  /** Its hash is kept, and a copy sealed under the runtime key (the pending list shows it again). */
  claimToken: string
}

export interface ClaimResult {
  item: OrderItem
  entitlement: Entitlement
  license: License
  /** True when this account had already claimed the item (the call is idempotent). */
  alreadyClaimed: boolean
}

export interface PurchaseService {
  purchase(input: PurchaseInput): PurchaseResult
  createResellerOrder(input: {
    productId: string
    reseller?: string | undefined
    priceCents?: number | undefined
  }): ResellerOrderResult
  claim(customerId: string, claimToken: string): ClaimResult
  /** What a claim link stands for now, read only (its page says so; opening it claims nothing). */
  claimLinkState(claimToken: string): ClaimLinkState
}

/** `unknown`: no order has this claim token; `reversed`: its order was refunded or charged back. */
export type ClaimLinkState = 'claimable' | 'claimed' | 'reversed' | 'unknown'

export function createPurchaseService(deps: {
  store: Store
  clock: Clock
  products: ProductService
  customers: CustomerService
  commerce: CommerceRepository
  licenses: LicenseRepository
  /** Seals each new claim token (null: none kept, the pending list shows no link). */
  secretBox: SecretBox | null
}): PurchaseService {
  const { store, clock, products, customers, commerce, licenses, secretBox } = deps

  /** Entitlement and license for one order item: the access source for delivery and the serial for activation. */
  function grant(input: {
    customerId: string
    productId: string
    itemId: string
    kind: LicenseKind
    source: Entitlement['source']
    maxActivations: number
    expiresAt: string | null
    subscriptionId: string | null
  }): { entitlement: Entitlement; license: License } {
    const at = clock.nowIso()
    const entitlementId = newId('ent')
    commerce.insertEntitlement({
      id: entitlementId,
      customerId: input.customerId,
      productId: input.productId,
      orderItemId: input.itemId,
      source: input.source,
      createdAt: at
    })
    const licenseId = newId('lic')
    licenses.insert({
      id: licenseId,
      key: newLicenseKey(),
      customerId: input.customerId,
      productId: input.productId,
      entitlementId,
      subscriptionId: input.subscriptionId,
      kind: input.kind,
      expiresAt: input.expiresAt,
      maxActivations: input.maxActivations,
      createdAt: at
    })
    return {
      entitlement: commerce.entitlement(entitlementId) as Entitlement,
      license: licenses.byId(licenseId) as License
    }
  }

  return {
    purchase(input) {
      const kind = input.kind ?? 'perpetual'
      return store.transaction(() => {
        const customer = customers.require(input.customerId)
        const product = products.require(input.productId)
        const now = clock.now()
        const at = now.toISOString()
        const price = input.priceCents ?? PURCHASE_DEFAULTS.priceCents[kind]
        const orderId = newId('ord')
        commerce.insertOrder({
          id: orderId,
          customerId: customer.id,
          channel: 'direct',
          reseller: null,
          storefrontSlug: product.storefrontSlug,
          currency: PURCHASE_DEFAULTS.currency,
          totalCents: price,
          createdAt: at
        })
        const itemId = newId('item')
        commerce.insertItem({
          id: itemId,
          orderId,
          productId: product.id,
          kind,
          unitPriceCents: price,
          claimTokenHash: null,
          sealedClaimToken: null
        })

        let subscription: Subscription | null = null
        let expiresAt = input.expiresAt ?? null
        if (kind === 'trial' && expiresAt === null)
          expiresAt = new Date(now.getTime() + PURCHASE_DEFAULTS.trialDays * DAY_MS).toISOString()
        if (kind === 'subscription') {
          const plan = input.plan ?? 'monthly'
          // The first paid period is one period of the plan, as every renewal after it.
          const periodEnd = expiresAt ?? new Date(now.getTime() + periodMs(plan)).toISOString()
          subscription = {
            id: newId('sub'),
            customerId: customer.id,
            productId: product.id,
            plan,
            status: 'active',
            currentPeriodEnd: periodEnd,
            cancelAtPeriodEnd: false,
            canceledAt: null,
            paymentFailedAt: null,
            createdAt: at
          }
          licenses.insertSubscription(subscription)
          expiresAt = periodEnd
        }
        const { entitlement, license } = grant({
          customerId: customer.id,
          productId: product.id,
          itemId,
          kind,
          source: kind === 'perpetual' ? 'purchase' : kind,
          maxActivations: input.maxActivations ?? PURCHASE_DEFAULTS.maxActivations,
          expiresAt,
          subscriptionId: subscription?.id ?? null
        })
        return {
          order: commerce.order(orderId) as Order,
          item: commerce.item(itemId) as OrderItem,
          entitlement,
          license,
          subscription
        }
      })
    },

    createResellerOrder({ productId, reseller, priceCents }) {
      return store.transaction(() => {
        const product = products.require(productId)
        const claimToken = `clm_${randomBase62(24)}`
        const orderId = newId('ord')
        const price = priceCents ?? PURCHASE_DEFAULTS.priceCents.perpetual
        commerce.insertOrder({
          id: orderId,
          customerId: null,
          channel: 'reseller',
          reseller: reseller?.trim() || 'Partner Store',
          storefrontSlug: product.storefrontSlug,
          currency: PURCHASE_DEFAULTS.currency,
          totalCents: price,
          createdAt: clock.nowIso()
        })
        const itemId = newId('item')
        commerce.insertItem({
          id: itemId,
          orderId,
          productId: product.id,
          kind: 'perpetual',
          unitPriceCents: price,
          claimTokenHash: sha256Hex(claimToken),
          sealedClaimToken: secretBox?.seal(claimToken) ?? null
        })
        return { order: commerce.order(orderId) as Order, item: commerce.item(itemId) as OrderItem, claimToken }
      })
    },

    claimLinkState(claimToken) {
      const item = commerce.itemByClaimHash(sha256Hex(claimToken.trim()))
      if (!item) return 'unknown'
      if (item.claimedByCustomerId !== null) return 'claimed'
      const order = commerce.order(item.orderId)
      return order !== null && order.status !== 'paid' ? 'reversed' : 'claimable'
    },

    claim(customerId, claimToken) {
      return store.transaction(() => {
        const item = commerce.itemByClaimHash(sha256Hex(claimToken.trim()))
        if (!item) {
          throw new DomainError('LIBRARY_CLAIM_FAILED', 'The claim token is not valid.', {
            details: { reason: 'INVALID_CLAIM_TOKEN' }
          })
        }
        if (item.claimedByCustomerId !== null && item.claimedByCustomerId !== customerId) {
          throw new DomainError('LIBRARY_CLAIM_FAILED', 'This order item was already claimed by another account.', {
            details: { reason: 'ALREADY_CLAIMED' }
          })
        }
        const order = commerce.order(item.orderId)
        if (item.claimedByCustomerId === null && order !== null && order.status !== 'paid') {
          // A reversed order grants nothing: claiming it would hand out a license nobody paid for.
          throw new DomainError(
            'LIBRARY_CLAIM_FAILED',
            `The order of this claim token was ${order.status === 'chargeback' ? 'charged back' : 'refunded'}: there is nothing to claim.`,
            {
              details: { reason: 'INVALID_CLAIM_TOKEN' }
            }
          )
        }
        if (item.claimedByCustomerId === customerId) {
          const entitlement = commerce.entitlementOfItem(item.id) as Entitlement
          const license = licenses.forCustomer(customerId).find((l) => l.entitlementId === entitlement.id) as License
          return { item, entitlement, license, alreadyClaimed: true }
        }
        commerce.markClaimed(item.id, customerId, clock.nowIso())
        commerce.assignOrder(item.orderId, customerId)
        const granted = grant({
          customerId,
          productId: item.productId,
          itemId: item.id,
          kind: 'perpetual',
          source: 'reseller_claim',
          maxActivations: PURCHASE_DEFAULTS.maxActivations,
          expiresAt: null,
          subscriptionId: null
        })
        return { item: commerce.item(item.id) as OrderItem, ...granted, alreadyClaimed: false }
      })
    }
  }
}
