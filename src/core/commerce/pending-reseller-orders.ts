import type { UnrecoverableReason } from '../credentials/credential-record'
import { sha256Hex } from '../crypto/digest'
import type { SecretBox } from '../crypto/secret-box'
import type { ProductService } from '../products/products'
import { claimLinkOf } from './claim-link'
import type { CommerceRepository, Order, OrderItem } from './commerce-repository'

/** A paid reseller order no one has claimed yet, with its claim link when this emulator can open it. */
export interface PendingResellerOrder {
  order: Order
  item: OrderItem
  productName: string | null
  /** Null when the link cannot be shown again (`unrecoverableReason` says why). */
  claimToken: string | null
  claimUrl: string | null
  /**
   * `not-kept`: made before claim tokens were kept sealed (schema 10 and older), or imported
   * without one; `other-runtime-key`: sealed under another runtime key (a copied database, a
   * scenario from another machine); `no-runtime-key`: the emulator runs without one.
   */
  unrecoverableReason: UnrecoverableReason | null
}

export interface PendingResellerOrders {
  list(): PendingResellerOrder[]
}

export function createPendingResellerOrders(deps: {
  commerce: CommerceRepository
  products: ProductService
  secretBox: SecretBox | null
  apiBaseUrl: () => string
}): PendingResellerOrders {
  const { commerce, products, secretBox, apiBaseUrl } = deps
  return {
    list() {
      return commerce.pendingResellerItems().map((row) => {
        const opened = row.sealedClaimToken !== null && secretBox ? secretBox.open(row.sealedClaimToken) : null
        // A sealed copy that is not this item's token (a hand-edited scenario) is no link at all.
        const claimToken = opened !== null && sha256Hex(opened) === row.claimTokenHash ? opened : null
        const item = commerce.item(row.itemId) as OrderItem
        return {
          order: commerce.order(row.orderId) as Order,
          item,
          productName: products.find(item.productId)?.name ?? null,
          claimToken,
          claimUrl: claimToken === null ? null : claimLinkOf(apiBaseUrl(), claimToken),
          unrecoverableReason:
            claimToken !== null
              ? null
              : secretBox === null
                ? 'no-runtime-key'
                : row.sealedClaimToken === null
                  ? 'not-kept'
                  : 'other-runtime-key'
        }
      })
    }
  }
}
