import type { Store } from '../store/store'
import { toActivation, toLicense, toSubscription } from '../licensing/license-rows'
import type { Activation, ActivationRow, License, LicenseRow, Subscription, SubscriptionRow } from '../licensing/license-rows'
import { createCommerceRows, toItem } from '../commerce/commerce-rows'
import type { Order, OrderItem, Entitlement, ItemRow } from '../commerce/commerce-rows'
import { toProduct } from '../products/products'
import type { Product, ProductRow } from '../products/products'
import { toFile } from '../downloads/product-files'
import type { FileRow, ProductFile } from '../downloads/product-files'

/** Everything one library page needs, read in a fixed handful of queries whatever its size. */
export interface CustomerHoldings {
  licenses: License[]
  /** Live activations by license id. */
  activations: Map<string, Activation[]>
  subscriptions: Subscription[]
  entitlements: Entitlement[]
  products: Map<string, Product>
  /** Files by product id, newest first. */
  files: Map<string, ProductFile[]>
  orders: Order[]
  /** Items by order id. */
  items: Map<string, OrderItem[]>
}

export const groupBy = <T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> => {
  const map = new Map<string, T[]>()
  for (const row of rows) {
    const k = key(row)
    const list = map.get(k)
    if (list) list.push(row)
    else map.set(k, [row])
  }
  return map
}

export function createLibraryQueries(store: Store) {
  const { db } = store
  const commerce = createCommerceRows(store)
  const licenses = db.prepare('SELECT * FROM licenses WHERE customer_id = ? ORDER BY created_at, rowid')
  const activations = db.prepare(
    `SELECT a.* FROM activations a JOIN licenses l ON l.id = a.license_id
      WHERE l.customer_id = ? AND a.deactivated_at IS NULL ORDER BY a.first_seen_at, a.rowid`
  )
  const subscriptions = db.prepare('SELECT * FROM subscriptions WHERE customer_id = ? ORDER BY created_at, rowid')
  const products = db.prepare(
    `SELECT * FROM products WHERE id IN (
       SELECT product_id FROM entitlements WHERE customer_id = @c
       UNION SELECT product_id FROM licenses WHERE customer_id = @c
       UNION SELECT product_id FROM subscriptions WHERE customer_id = @c
       UNION SELECT i.product_id FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.customer_id = @c)`
  )
  const files = db.prepare(
    `SELECT * FROM product_files WHERE product_id IN
       (SELECT product_id FROM entitlements WHERE customer_id = ? AND status = 'active')
     ORDER BY created_at DESC, rowid DESC`
  )
  const items = db.prepare(
    `SELECT i.* FROM order_items i JOIN orders o ON o.id = i.order_id WHERE o.customer_id = ? ORDER BY i.rowid`
  )

  return {
    holdings(customerId: string): CustomerHoldings {
      return store.transaction(() => {
        return {
          licenses: (licenses.all(customerId) as LicenseRow[]).map(toLicense),
          activations: groupBy((activations.all(customerId) as ActivationRow[]).map(toActivation), (a) => a.licenseId),
          subscriptions: (subscriptions.all(customerId) as SubscriptionRow[]).map(toSubscription),
          entitlements: commerce.entitlementsOfCustomer(customerId),
          products: new Map((products.all({ c: customerId }) as ProductRow[]).map((row) => [row.id, toProduct(row)])),
          files: groupBy((files.all(customerId) as FileRow[]).map(toFile), (f) => f.productId),
          orders: commerce.ordersOfCustomer(customerId),
          items: groupBy((items.all(customerId) as ItemRow[]).map(toItem), (i) => i.orderId)
        }
      })
    }
  }
}

export type LibraryQueries = ReturnType<typeof createLibraryQueries>
