import type { LicenseKind } from '../../shared/contract/licensing'
import type { Store } from '../store/store'

export type OrderChannel = 'direct' | 'reseller'

export type EntitlementSource = 'purchase' | 'subscription' | 'trial' | 'reseller_claim'

/** `refunded`: the vendor gave the money back; `chargeback`: the customer's bank took it back. */
export type OrderStatus = 'paid' | 'refunded' | 'chargeback'

export interface Order {
  id: string
  customerId: string | null
  channel: OrderChannel
  reseller: string | null
  storefrontSlug: string | null
  status: OrderStatus
  currency: string
  totalCents: number
  createdAt: string
  /** When it was refunded or charged back; null while paid. */
  reversedAt: string | null
}

export interface OrderItem {
  id: string
  orderId: string
  productId: string
  kind: LicenseKind
  unitPriceCents: number
  claimable: boolean
  claimedByCustomerId: string | null
  claimedAt: string | null
}

export interface Entitlement {
  id: string
  customerId: string
  productId: string
  orderItemId: string | null
  source: EntitlementSource
  status: 'active' | 'revoked'
  createdAt: string
}

interface OrderRow {
  id: string
  customer_id: string | null
  channel: OrderChannel
  reseller: string | null
  storefront_slug: string | null
  status: OrderStatus
  currency: string
  total_cents: number
  created_at: string
  reversed_at: string | null
}
export interface ItemRow {
  id: string
  order_id: string
  product_id: string
  kind: LicenseKind
  unit_price_cents: number
  claim_token_hash: string | null
  /** The claim token sealed under the runtime key (null: not kept, as before schema 11). */
  sealed_claim_token: string | null
  claimed_by_customer_id: string | null
  claimed_at: string | null
}
/** An order item with its order's columns (`o_`), as the pending reseller list reads them. */
interface PendingItemRow extends ItemRow {
  o_customer_id: string | null
  o_channel: OrderChannel
  o_reseller: string | null
  o_storefront_slug: string | null
  o_status: OrderStatus
  o_currency: string
  o_total_cents: number
  o_created_at: string
  o_reversed_at: string | null
}
interface EntitlementRow {
  id: string
  customer_id: string
  product_id: string
  order_item_id: string | null
  source: EntitlementSource
  status: 'active' | 'revoked'
  created_at: string
}

const toOrder = (r: OrderRow): Order => ({
  id: r.id,
  customerId: r.customer_id,
  channel: r.channel,
  reseller: r.reseller,
  storefrontSlug: r.storefront_slug,
  status: r.status,
  currency: r.currency,
  totalCents: r.total_cents,
  createdAt: r.created_at,
  reversedAt: r.reversed_at
})
export const toItem = (r: ItemRow): OrderItem => ({
  id: r.id,
  orderId: r.order_id,
  productId: r.product_id,
  kind: r.kind,
  unitPriceCents: r.unit_price_cents,
  claimable: r.claim_token_hash !== null,
  claimedByCustomerId: r.claimed_by_customer_id,
  claimedAt: r.claimed_at
})
const toEntitlement = (r: EntitlementRow): Entitlement => ({
  id: r.id,
  customerId: r.customer_id,
  productId: r.product_id,
  orderItemId: r.order_item_id,
  source: r.source,
  status: r.status,
  createdAt: r.created_at
})

/** The SQL of orders, order items and entitlements, prepared once. */
export function createCommerceRepository(store: Store) {
  const { db } = store
  const liveEntitlementSources = db.prepare(
    `SELECT e.id, o.status AS order_status
       FROM entitlements e
       LEFT JOIN order_items i ON i.id = e.order_item_id
       LEFT JOIN orders o ON o.id = i.order_id
      WHERE e.customer_id = ? AND e.product_id = ? AND e.status = 'active'`
  )
  const insertOrder = db.prepare(
    `INSERT INTO orders (id, customer_id, channel, reseller, storefront_slug, status, currency, total_cents, created_at)
     VALUES (@id, @customerId, @channel, @reseller, @storefrontSlug, 'paid', @currency, @totalCents, @createdAt)`
  )
  const insertItem = db.prepare(
    `INSERT INTO order_items (id, order_id, product_id, kind, unit_price_cents, claim_token_hash, sealed_claim_token)
     VALUES (@id, @orderId, @productId, @kind, @unitPriceCents, @claimTokenHash, @sealedClaimToken)`
  )
  const insertEntitlement = db.prepare(
    `INSERT INTO entitlements (id, customer_id, product_id, order_item_id, source, status, created_at)
     VALUES (@id, @customerId, @productId, @orderItemId, @source, 'active', @createdAt)`
  )
  const orderById = db.prepare('SELECT * FROM orders WHERE id = ?')
  const ordersOfCustomer = db.prepare('SELECT * FROM orders WHERE customer_id = ? ORDER BY created_at DESC, rowid DESC')
  const itemById = db.prepare('SELECT * FROM order_items WHERE id = ?')
  const itemByClaimHash = db.prepare('SELECT * FROM order_items WHERE claim_token_hash = ?')
  const itemsOfOrder = db.prepare('SELECT * FROM order_items WHERE order_id = ? ORDER BY rowid')
  const markClaimed = db.prepare(
    'UPDATE order_items SET claimed_by_customer_id = ?, claimed_at = ? WHERE id = ? AND claimed_by_customer_id IS NULL'
  )
  const assignOrder = db.prepare('UPDATE orders SET customer_id = ? WHERE id = ? AND customer_id IS NULL')
  const entitlementById = db.prepare('SELECT * FROM entitlements WHERE id = ?')
  const entitlementOfItem = db.prepare('SELECT * FROM entitlements WHERE order_item_id = ?')
  const entitlementsOfCustomer = db.prepare(
    'SELECT * FROM entitlements WHERE customer_id = ? ORDER BY created_at, rowid'
  )
  const setEntitlementStatus = db.prepare('UPDATE entitlements SET status = ? WHERE id = ?')
  const reverseOrder = db.prepare("UPDATE orders SET status = ?, reversed_at = ? WHERE id = ? AND status = 'paid'")
  // Paid reseller orders whose item no one has claimed yet, newest first.
  // One query for the list: the order's columns under an `o_` prefix beside the item's own.
  const pendingResellerItems = db.prepare(
    `SELECT i.*, o.customer_id AS o_customer_id, o.channel AS o_channel, o.reseller AS o_reseller,
            o.storefront_slug AS o_storefront_slug, o.status AS o_status, o.currency AS o_currency,
            o.total_cents AS o_total_cents, o.created_at AS o_created_at, o.reversed_at AS o_reversed_at
       FROM orders o JOIN order_items i ON i.order_id = o.id
      WHERE o.channel = 'reseller' AND o.status = 'paid'
        AND i.claim_token_hash IS NOT NULL AND i.claimed_by_customer_id IS NULL
      ORDER BY o.created_at DESC, o.rowid DESC, i.rowid`
  )

  return {
    insertOrder: (order: Omit<Order, 'status' | 'reversedAt'>) => void insertOrder.run(order),
    insertItem: (item: {
      id: string
      orderId: string
      productId: string
      kind: LicenseKind
      unitPriceCents: number
      claimTokenHash: string | null
      sealedClaimToken: string | null
    }) => void insertItem.run(item),
    insertEntitlement: (e: Omit<Entitlement, 'status'>) => void insertEntitlement.run(e),
    order: (id: string) => {
      const row = orderById.get(id) as OrderRow | undefined
      return row ? toOrder(row) : null
    },
    ordersOfCustomer: (customerId: string) => (ordersOfCustomer.all(customerId) as OrderRow[]).map(toOrder),
    item: (id: string) => {
      const row = itemById.get(id) as ItemRow | undefined
      return row ? toItem(row) : null
    },
    itemByClaimHash: (hash: string) => {
      const row = itemByClaimHash.get(hash) as ItemRow | undefined
      return row ? toItem(row) : null
    },
    itemsOfOrder: (orderId: string) => (itemsOfOrder.all(orderId) as ItemRow[]).map(toItem),
    markClaimed: (itemId: string, customerId: string, at: string) =>
      markClaimed.run(customerId, at, itemId).changes === 1,
    assignOrder: (orderId: string, customerId: string) => void assignOrder.run(customerId, orderId),
    entitlement: (id: string) => {
      const row = entitlementById.get(id) as EntitlementRow | undefined
      return row ? toEntitlement(row) : null
    },
    entitlementOfItem: (itemId: string) => {
      const row = entitlementOfItem.get(itemId) as EntitlementRow | undefined
      return row ? toEntitlement(row) : null
    },
    entitlementsOfCustomer: (customerId: string) =>
      (entitlementsOfCustomer.all(customerId) as EntitlementRow[]).map(toEntitlement),
    setEntitlementStatus: (id: string, status: 'active' | 'revoked') => void setEntitlementStatus.run(status, id),
    /** A customer's active entitlements to a product, each with the status of the order that granted it (null for none). */
    liveEntitlementSources: (customerId: string, productId: string) =>
      (liveEntitlementSources.all(customerId, productId) as { id: string; order_status: Order['status'] | null }[]).map(
        (row) => ({
          id: row.id,
          orderStatus: row.order_status
        })
      ),
    /** Paid reseller order items waiting for their claim, newest first, with the claim token's hash and sealed copy. */
    pendingResellerItems: () =>
      (pendingResellerItems.all() as PendingItemRow[]).map((row) => ({
        order: toOrder({
          id: row.order_id,
          customer_id: row.o_customer_id,
          channel: row.o_channel,
          reseller: row.o_reseller,
          storefront_slug: row.o_storefront_slug,
          status: row.o_status,
          currency: row.o_currency,
          total_cents: row.o_total_cents,
          created_at: row.o_created_at,
          reversed_at: row.o_reversed_at
        }),
        item: toItem(row),
        // The query reads claimable items only.
        claimTokenHash: row.claim_token_hash as string,
        sealedClaimToken: row.sealed_claim_token
      })),
    /** Marks a paid order refunded or charged back; false when it was not paid. */
    reverseOrder: (id: string, status: Exclude<OrderStatus, 'paid'>, at: string) =>
      reverseOrder.run(status, at, id).changes === 1
  }
}

export type CommerceRepository = ReturnType<typeof createCommerceRepository>
