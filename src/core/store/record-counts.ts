import type { RequestLog } from '../inspector/request-log'
import type { Store } from './store'

/** How much the emulator holds, for the Overview screen. */
export interface RecordCounts {
  developers: number
  products: number
  credentials: number
  activeCredentials: number
  customers: number
  licenses: number
  /** Live activations only (deactivated ones are history). */
  activations: number
  requests: number
  /** Of those, the UI's own calls (source `ui`), which the inspector hides unless asked. */
  uiRequests: number
}

/**
 * Counts of every table the Overview shows, read in one statement, and the request log's from its
 * own file. The log writes in batches; its count waits for what has finished (as the inspector's
 * reads do), so a request that has finished is counted.
 */
export function createRecordCounts(store: Store, requests: Pick<RequestLog, 'count'>): () => RecordCounts {
  const counts = store.db.prepare(`
    SELECT
      (SELECT COUNT(*) FROM developers) AS developers,
      (SELECT COUNT(*) FROM products) AS products,
      (SELECT COUNT(*) FROM product_credentials) AS credentials,
      (SELECT COUNT(*) FROM product_credentials WHERE status = 'active') AS activeCredentials,
      (SELECT COUNT(*) FROM customers) AS customers,
      (SELECT COUNT(*) FROM licenses) AS licenses,
      (SELECT COALESCE(SUM(live), 0) FROM live_activation_counts) AS activations
  `)
  return () => ({ ...(counts.get() as Omit<RecordCounts, 'requests' | 'uiRequests'>), ...requests.count() })
}
