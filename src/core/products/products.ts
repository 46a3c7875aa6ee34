import type { DeveloperActor } from '../accounts/actor'
import { LEAF_TABLES } from '../changes/data-version'
import type { DataVersion } from '../changes/data-version'
import { createKeptReads } from '../changes/kept-reads'
import type { Clock } from '../clock/clock'
import { newId, randomBase62 } from '../crypto/random'
import { DomainError } from '../errors/domain-error'
import { shownId } from '../redaction/shown-id'
import type { Store } from '../store/store'
import { createProductRepository } from './product-repository'
import type { Product } from './product-repository'

export type { Product } from './product-repository'

/** App IDs carry 128 random bits behind a recognisable prefix. */
export const newAppId = (): string => `app_${randomBase62(16)}`

export interface ProductService {
  create(input: {
    developerId: string
    name: string
    storefrontSlug?: string | undefined
    supportEmail?: string | undefined
  }): Product
  find(id: string): Product | null
  /** The product, or PRODUCT_NOT_FOUND (the control plane sees every product). */
  require(id: string): Product
  /** The product if `actor` may see it (owner or admin); otherwise PRODUCT_NOT_FOUND, never a leak. */
  requireVisible(actor: DeveloperActor, id: string): Product
  listVisible(actor: DeveloperActor): Product[]
  list(): Product[]
  /** The id of the product with this App ID, or null: read for every request the inspector records. */
  idOfAppId(appId: string): string | null
}

/** App IDs whose product is kept between writes: more than a busy QA library's. */
const KEPT_APP_IDS = 1000

export function isVisibleTo(actor: DeveloperActor, product: Product): boolean {
  return actor.role === 'admin' || product.developerId === actor.developerId
}

/** Products belong to a developer; only the owner (or an admin) sees one. */
export function createProductService(
  store: Store,
  clock: Clock,
  dataVersion: Pick<DataVersion, 'ignoring'>
): ProductService {
  const products = createProductRepository(store)
  const find = (id: string): Product | null => products.byId(id)
  // A product's App ID changes only with a write to products (never with a licensing call's stamp).
  const keptAppIds = createKeptReads<string, string | null>({
    version: dataVersion.ignoring(...LEAF_TABLES),
    capacity: KEPT_APP_IDS
  })

  return {
    create({ developerId, name, storefrontSlug, supportEmail }) {
      return store.transaction(() => {
        if (!products.developerExists(developerId)) {
          throw new DomainError('DEVELOPER_NOT_FOUND', `No developer has the id ${shownId(developerId, 'dev')}.`)
        }
        const at = clock.nowIso()
        const slug = storefrontSlug?.trim() || null
        if (slug) products.ensureStorefront(slug, at)
        const product: Product = {
          id: newId('prod'),
          developerId,
          name: name.trim(),
          appId: newAppId(),
          storefrontSlug: slug,
          supportEmail: supportEmail?.trim() || null,
          createdAt: at
        }
        products.insert(product)
        return product
      })
    },
    find,
    require(id) {
      const product = find(id)
      if (!product) throw new DomainError('PRODUCT_NOT_FOUND', `No product has the id ${shownId(id, 'prod')}.`)
      return product
    },
    requireVisible(actor, id) {
      const product = find(id)
      if (!product || !isVisibleTo(actor, product)) {
        throw new DomainError('PRODUCT_NOT_FOUND', `No product ${shownId(id, 'prod')} is visible to this developer.`)
      }
      return product
    },
    listVisible: (actor) => (actor.role === 'admin' ? products.all() : products.byDeveloper(actor.developerId)),
    list: () => products.all(),
    idOfAppId: (appId) => keptAppIds.read(appId, () => products.idByAppId(appId))
  }
}
