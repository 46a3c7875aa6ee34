import type { Store } from '../store/store'
import type { Clock } from '../clock/clock'
import { DomainError } from '../errors/domain-error'
import { newId } from '../crypto/random'

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

export interface NewCustomer {
  email: string
  name?: string | undefined
  country?: string | undefined
  locale?: string | undefined
  newsletter?: boolean | undefined
}

export interface CustomerService {
  create(input: NewCustomer): Customer
  find(id: string): Customer | null
  require(id: string): Customer
  findByUserId(userId: string): Customer | null
  /** The user account of a developer, made on first use (a developer can claim reseller items too). */
  ensureForDeveloper(developer: { id: string; email: string; name: string | null }): Customer
  list(): Customer[]
  preferences(customerId: string): MarketingPreferences
}

export function createCustomerService(store: Store, clock: Clock): CustomerService {
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

  const find = (id: string): Customer | null => {
    const row = byId.get(id) as CustomerRow | undefined
    return row ? toCustomer(row) : null
  }

  function insertCustomer(input: NewCustomer & { developerId?: string | null }): Customer {
    const email = input.email.trim()
    if (byEmail.get(email)) throw new DomainError('CUSTOMER_EXISTS', `A customer with the email ${email} already exists.`)
    const id = newId('cus')
    const at = clock.nowIso()
    insert.run({
      id,
      userId: newId('usr'),
      email,
      name: input.name?.trim() || null,
      country: input.country ?? null,
      locale: input.locale ?? null,
      developerId: input.developerId ?? null,
      createdAt: at
    })
    insertPreferences.run(id, input.newsletter ? 1 : 0, at)
    return find(id) as Customer
  }

  return {
    create: (input) => store.transaction(() => insertCustomer(input)),
    find,
    require(id) {
      const customer = find(id)
      if (!customer) throw new DomainError('CUSTOMER_NOT_FOUND', `No customer has the id ${id}.`)
      return customer
    },
    findByUserId(userId) {
      const row = byUserId.get(userId) as CustomerRow | undefined
      return row ? toCustomer(row) : null
    },
    ensureForDeveloper(developer) {
      return store.transaction(() => {
        const linked = byDeveloper.get(developer.id) as CustomerRow | undefined
        if (linked) return toCustomer(linked)
        const sameEmail = byEmail.get(developer.email) as CustomerRow | undefined
        if (sameEmail && sameEmail.developer_id === null) {
          linkDeveloper.run(developer.id, sameEmail.id)
          return find(sameEmail.id) as Customer
        }
        return insertCustomer({ email: developer.email, name: developer.name ?? undefined, developerId: developer.id })
      })
    },
    list: () => (all.all() as CustomerRow[]).map(toCustomer),
    preferences(customerId) {
      const row = preferences.get(customerId) as { newsletter: number; product_updates: number; updated_at: string } | undefined
      return row
        ? { newsletter: row.newsletter === 1, productUpdates: row.product_updates === 1, updatedAt: row.updated_at }
        : { newsletter: false, productUpdates: true, updatedAt: clock.nowIso() }
    }
  }
}
