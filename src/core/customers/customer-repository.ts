import type { Store } from '../store/store'

/** A customer account and its signed-in user identity (`userId`, the JWT subject). */
export interface Customer {
  id: string
  userId: string
  email: string
  name: string | null
  country: string | null
  locale: string | null
  /** Set when this account belongs to a developer who also signs in as a user. */
  developerId: string | null
  createdAt: string
}

export interface MarketingPreferences {
  newsletter: boolean
  productUpdates: boolean
  updatedAt: string
}

interface CustomerRow {
  id: string
  user_id: string
  email: string
  name: string | null
  country: string | null
  locale: string | null
  developer_id: string | null
  created_at: string
}

const toCustomer = (row: CustomerRow): Customer => ({
  id: row.id,
  userId: row.user_id,
  email: row.email,
  name: row.name,
  country: row.country,
  locale: row.locale,
  developerId: row.developer_id,
  createdAt: row.created_at
})

/** The customers and marketing_preferences tables: reads and writes, no rules. */
export interface CustomerRepository {
  insert(customer: Customer, preferences: { newsletter: boolean }): void
  byId(id: string): Customer | null
  byUserId(userId: string): Customer | null
  byEmail(email: string): Customer | null
  byDeveloper(developerId: string): Customer | null
  linkDeveloper(customerId: string, developerId: string): void
  /** Oldest first. */
  all(): Customer[]
  /** Null when the customer has no preferences row. */
  preferences(customerId: string): MarketingPreferences | null
}

export function createCustomerRepository(store: Store): CustomerRepository {
  const { db } = store
  const insert = db.prepare(
    `INSERT INTO customers (id, user_id, email, name, country, locale, developer_id, created_at)
     VALUES (@id, @userId, @email, @name, @country, @locale, @developerId, @createdAt)`
  )
  const insertPreferences = db.prepare(
    'INSERT INTO marketing_preferences (customer_id, newsletter, product_updates, updated_at) VALUES (?, ?, 1, ?)'
  )
  const byId = db.prepare('SELECT * FROM customers WHERE id = ?')
  const byUserId = db.prepare('SELECT * FROM customers WHERE user_id = ?')
  const byEmail = db.prepare('SELECT * FROM customers WHERE email = ?')
  const byDeveloper = db.prepare('SELECT * FROM customers WHERE developer_id = ?')
  const linkDeveloper = db.prepare('UPDATE customers SET developer_id = ? WHERE id = ?')
  const all = db.prepare('SELECT * FROM customers ORDER BY created_at, rowid')
  const preferences = db.prepare('SELECT * FROM marketing_preferences WHERE customer_id = ?')
  const one = (row: unknown): Customer | null => (row ? toCustomer(row as CustomerRow) : null)

  return {
    insert(customer, prefs) {
      insert.run(customer)
      insertPreferences.run(customer.id, prefs.newsletter ? 1 : 0, customer.createdAt)
    },
    byId: (id) => one(byId.get(id)),
    byUserId: (userId) => one(byUserId.get(userId)),
    byEmail: (email) => one(byEmail.get(email)),
    byDeveloper: (developerId) => one(byDeveloper.get(developerId)),
    linkDeveloper: (customerId, developerId) => void linkDeveloper.run(developerId, customerId),
    all: () => (all.all() as CustomerRow[]).map(toCustomer),
    preferences(customerId) {
      const row = preferences.get(customerId) as
        { newsletter: number; product_updates: number; updated_at: string } | undefined
      return row
        ? { newsletter: row.newsletter === 1, productUpdates: row.product_updates === 1, updatedAt: row.updated_at }
        : null
    }
  }
}
