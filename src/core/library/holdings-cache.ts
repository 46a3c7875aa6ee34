import type { DataVersion } from '../changes/data-version'
import { createKeptReads } from '../changes/kept-reads'
import type { CustomerHoldings, LibraryRepository } from './library-repository'

/** Customers whose holdings are kept; the oldest read goes first. */
const KEPT_CUSTOMERS = 16

/**
 * The library's rows for a customer, read once and kept until any data table is written. A
 * 1,000-item library is ~7,000 rows: reading them is most of a library answer's service time,
 * and a plugin or a web view asks again and again while nothing changes. The view is still
 * built per request, at the clock's current instant.
 */
export function cachedHoldings(
  repository: LibraryRepository,
  version: Pick<DataVersion, 'current'>
): Pick<LibraryRepository, 'holdings'> {
  const kept = createKeptReads<string, CustomerHoldings>({ version: version.current, capacity: KEPT_CUSTOMERS })
  return { holdings: (customerId) => kept.read(customerId, () => repository.holdings(customerId)) }
}
