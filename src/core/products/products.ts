import type { Store } from '../store/store'
import type { Clock } from '../clock/clock'
import type { DeveloperActor } from '../accounts/actor'
import { DomainError } from '../errors/domain-error'
import { newId, randomBase62 } from '../crypto/random'

export interface Product {
  id: string
  developerId: string
  name: string
  /** Client-distributable identifier; stays the same across credential rotations. */
  appId: string
  storefrontSlug: string | null
  /** Support contact shown in customers' libraries. */
  supportEmail: string | null
  createdAt: string
}

export interface ProductRow {
  id: string
  developer_id: string
  name: string
  app_id: string
  storefront_slug: string | null
  support_email: string | null
  created_at: string
}

export const toProduct = (row: ProductRow): Product => ({
  id: row.id,
  developerId: row.developer_id,
  name: row.name,
  appId: row.app_id,
  storefrontSlug: row.storefront_slug,
  supportEmail: row.support_email,
  createdAt: row.created_at
})

/** App IDs carry 128 random bits behind a recognisable prefix. */
export const newAppId = (): string => `app_${randomBase62(16)}`

export interface ProductService {
  create(input: { developerId: string; name: string; storefrontSlug?: string | undefined; supportEmail?: string | undefined }): Product
  find(id: string): Product | null
  /** The product if `actor` may see it (owner or admin); otherwise PRODUCT_NOT_FOUND, never a leak. */
  requireVisible(actor: DeveloperActor, id: string): Product
  listVisible(actor: DeveloperActor): Product[]
  list(): Product[]
}

export function isVisibleTo(actor: DeveloperActor, product: Product): boolean {
  return actor.role === 'admin' || product.developerId === actor.developerId
}

export function createProductService(store: Store, clock: Clock): ProductService {
  const insert = store.db.prepare(
    'INSERT INTO products (id, developer_id, name, app_id, storefront_slug, support_email, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'
  )
  const insertStorefront = store.db.prepare('INSERT OR IGNORE INTO storefronts (slug, name, created_at) VALUES (?, ?, ?)')
  const byId = store.db.prepare('SELECT * FROM products WHERE id = ?')
  const byDeveloper = store.db.prepare('SELECT * FROM products WHERE developer_id = ? ORDER BY created_at, rowid')
  const all = store.db.prepare('SELECT * FROM products ORDER BY created_at, rowid')
  const developerExists = store.db.prepare('SELECT 1 FROM developers WHERE id = ?')

  const find = (id: string): Product | null => {
    const row = byId.get(id) as ProductRow | undefined
    return row ? toProduct(row) : null
  }

  return {
    create({ developerId, name, storefrontSlug, supportEmail }) {
      return store.transaction(() => {
        if (!developerExists.get(developerId)) {
          throw new DomainError('DEVELOPER_NOT_FOUND', `No developer has the id ${developerId}.`)
        }
        const id = newId('prod')
        const slug = storefrontSlug?.trim() || null
        if (slug) insertStorefront.run(slug, slug, clock.nowIso())
        insert.run(id, developerId, name.trim(), newAppId(), slug, supportEmail?.trim() || null, clock.nowIso())
        return find(id) as Product
      })
    },
    find,
    requireVisible(actor, id) {
      const product = find(id)
      if (!product || !isVisibleTo(actor, product)) {
        throw new DomainError('PRODUCT_NOT_FOUND', `No product ${id} is visible to this developer.`)
      }
      return product
    },
    listVisible(actor) {
      const rows = (actor.role === 'admin' ? all.all() : byDeveloper.all(actor.developerId)) as ProductRow[]
      return rows.map(toProduct)
    },
    list: () => (all.all() as ProductRow[]).map(toProduct)
  }
}
