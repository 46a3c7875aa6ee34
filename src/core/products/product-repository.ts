import type { Store } from '../store/store'

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

/** The products and storefronts tables: reads and writes, no rules. */
export interface ProductRepository {
  insert(product: Product): void
  /** A storefront named by its slug, made on first use. */
  ensureStorefront(slug: string, at: string): void
  byId(id: string): Product | null
  /** Oldest first. */
  byDeveloper(developerId: string): Product[]
  all(): Product[]
  idByAppId(appId: string): string | null
  developerExists(developerId: string): boolean
}

export function createProductRepository(store: Store): ProductRepository {
  const insert = store.db.prepare(
    'INSERT INTO products (id, developer_id, name, app_id, storefront_slug, support_email, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'
  )
  const insertStorefront = store.db.prepare(
    'INSERT OR IGNORE INTO storefronts (slug, name, created_at) VALUES (?, ?, ?)'
  )
  const byId = store.db.prepare('SELECT * FROM products WHERE id = ?')
  const byDeveloper = store.db.prepare('SELECT * FROM products WHERE developer_id = ? ORDER BY created_at, rowid')
  const all = store.db.prepare('SELECT * FROM products ORDER BY created_at, rowid')
  const developerExists = store.db.prepare('SELECT 1 FROM developers WHERE id = ?')
  const idByAppId = store.db.prepare('SELECT id FROM products WHERE app_id = ?').pluck()
  return {
    insert: (p) => void insert.run(p.id, p.developerId, p.name, p.appId, p.storefrontSlug, p.supportEmail, p.createdAt),
    ensureStorefront: (slug, at) => void insertStorefront.run(slug, slug, at),
    byId(id) {
      const row = byId.get(id) as ProductRow | undefined
      return row ? toProduct(row) : null
    },
    byDeveloper: (developerId) => (byDeveloper.all(developerId) as ProductRow[]).map(toProduct),
    all: () => (all.all() as ProductRow[]).map(toProduct),
    idByAppId: (appId) => (idByAppId.get(appId) as string | undefined) ?? null,
    developerExists: (developerId) => developerExists.get(developerId) !== undefined
  }
}
