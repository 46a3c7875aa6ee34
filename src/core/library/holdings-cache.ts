import type { Store } from '../store/store'
import type { DataVersion } from '../changes/data-version'
import type { CustomerHoldings, LibraryRepository } from './library-repository'

/** Customers whose holdings are kept; the oldest read goes first. */
const KEPT_CUSTOMERS = 16

/**
 * The library's rows for a customer, read once and kept until any data table is written. A
 * 1,000-item library is ~7,000 rows: reading them is most of a library answer's service time,
 * and a plugin or a web view asks again and again while nothing changes. Nothing stale is ever
 * answered: every write to a data table, whoever makes it, moves the data version (the write
 * observer sees each one), and a kept read of an older version is read again. The view is still
 * built per request, at the clock's current instant. Holdings are shared between answers: the
 * view only reads them.
 */
export function cachedHoldings(repository: LibraryRepository, store: Store, version: DataVersion): Pick<LibraryRepository, 'holdings'> {
  const kept = new Map<string, { version: number; holdings: CustomerHoldings }>()
  return {
    holdings(customerId) {
      // Inside someone else's transaction the rows may yet be rolled back: read them, keep nothing.
      if (store.db.inTransaction) return repository.holdings(customerId)
      const now = version.current()
      const hit = kept.get(customerId)
      if (hit?.version === now) return hit.holdings
      const holdings = repository.holdings(customerId)
      kept.delete(customerId)
      if (kept.size >= KEPT_CUSTOMERS) kept.delete(kept.keys().next().value as string)
      kept.set(customerId, { version: now, holdings })
      return holdings
    }
  }
}
