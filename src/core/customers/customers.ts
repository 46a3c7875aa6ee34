import type { Clock } from '../clock/clock'
import { newId } from '../crypto/random'
import { DomainError } from '../errors/domain-error'
import { shownId } from '../redaction/shown-id'
import type { Store } from '../store/store'
import { createCustomerRepository } from './customer-repository'
import type { Customer, MarketingPreferences } from './customer-repository'

export type { Customer, MarketingPreferences } from './customer-repository'

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

/** Customer accounts: one per email; a developer's own account is linked or made on first use. */
export function createCustomerService(store: Store, clock: Clock): CustomerService {
  const customers = createCustomerRepository(store)

  function insertCustomer(input: NewCustomer & { developerId?: string | null }): Customer {
    const email = input.email.trim()
    if (customers.byEmail(email))
      throw new DomainError('CUSTOMER_EXISTS', `A customer with the email ${email} already exists.`)
    const customer: Customer = {
      id: newId('cus'),
      userId: newId('usr'),
      email,
      name: input.name?.trim() || null,
      country: input.country ?? null,
      locale: input.locale ?? null,
      developerId: input.developerId ?? null,
      createdAt: clock.nowIso()
    }
    customers.insert(customer, { newsletter: input.newsletter === true })
    return customer
  }

  return {
    create: (input) => store.transaction(() => insertCustomer(input)),
    find: (id) => customers.byId(id),
    require(id) {
      const customer = customers.byId(id)
      if (!customer) throw new DomainError('CUSTOMER_NOT_FOUND', `No customer has the id ${shownId(id, 'cus')}.`)
      return customer
    },
    findByUserId: (userId) => customers.byUserId(userId),
    ensureForDeveloper(developer) {
      return store.transaction(() => {
        const linked = customers.byDeveloper(developer.id)
        if (linked) return linked
        const sameEmail = customers.byEmail(developer.email)
        if (sameEmail && sameEmail.developerId === null) {
          customers.linkDeveloper(sameEmail.id, developer.id)
          return { ...sameEmail, developerId: developer.id }
        }
        return insertCustomer({ email: developer.email, name: developer.name ?? undefined, developerId: developer.id })
      })
    },
    list: () => customers.all(),
    // A customer without a row has never chosen: the defaults a new account gets.
    preferences: (customerId) =>
      customers.preferences(customerId) ?? { newsletter: false, productUpdates: true, updatedAt: clock.nowIso() }
  }
}
