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
      // Many orders of one product: its name is looked up once.
      const names = new Map<string, string | null>()
      const nameOf = (productId: string) => {
        if (!names.has(productId)) names.set(productId, products.find(productId)?.name ?? null)
        return names.get(productId) ?? null
      }
      return commerce.pendingResellerItems().map(({ order, item, claimTokenHash, sealedClaimToken }) => {
        const opened = sealedClaimToken !== null && secretBox ? secretBox.open(sealedClaimToken) : null
        // A sealed copy that is not this item's token (a hand-edited scenario) is no link at all.
        const claimToken = opened !== null && sha256Hex(opened) === claimTokenHash ? opened : null
        return {
          order,
          item,
          productName: nameOf(item.productId),
          claimToken,
          claimUrl: claimToken === null ? null : claimLinkOf(apiBaseUrl(), claimToken),
          unrecoverableReason:
            claimToken !== null
              ? null
              : secretBox === null
                ? 'no-runtime-key'
                : sealedClaimToken === null
                  ? 'not-kept'
                  : 'other-runtime-key'
        }
      })
    }
  }
}
