import type { Store } from '../store/store'

export type ConnectionFailureReason =
  'UNKNOWN_PRODUCT' | 'APP_ID_MISMATCH' | 'KEY_MISMATCH' | 'SECRET_MISMATCH' | 'CREDENTIAL_REVOKED'

/** The product's connection status record: what the last verification said, and how often. */
export interface ConnectionStatus {
  productId: string
  lastStatus: 'verified' | 'failed'
  lastReason: ConnectionFailureReason | null
  lastAttemptAt: string
  lastVerifiedAt: string | null
  lastCredentialId: string | null
  attemptCount: number
  successCount: number
  failureCount: number
}

interface ConnectionStatusRow {
  product_id: string
  last_status: 'verified' | 'failed'
  last_reason: ConnectionFailureReason | null
  last_attempt_at: string
  last_verified_at: string | null
  last_credential_id: string | null
  attempt_count: number
  success_count: number
  failure_count: number
}

export interface ConnectionStatusRepository {
  record(input: {
    productId: string
    at: string
    credentialId: string | null
    failure: ConnectionFailureReason | null
  }): void
  get(productId: string): ConnectionStatus | null
}

export function createConnectionStatusRepository(store: Store): ConnectionStatusRepository {
  const upsert = store.db.prepare(
    `INSERT INTO connection_status
       (product_id, last_status, last_reason, last_attempt_at, last_verified_at, last_credential_id,
        attempt_count, success_count, failure_count)
     VALUES (@productId, @status, @reason, @at, @verifiedAt, @credentialId, 1, @success, @failure)
     ON CONFLICT (product_id) DO UPDATE SET
       last_status = excluded.last_status,
       last_reason = excluded.last_reason,
       last_attempt_at = excluded.last_attempt_at,
       last_verified_at = COALESCE(excluded.last_verified_at, connection_status.last_verified_at),
       last_credential_id = COALESCE(excluded.last_credential_id, connection_status.last_credential_id),
       attempt_count = connection_status.attempt_count + 1,
       success_count = connection_status.success_count + excluded.success_count,
       failure_count = connection_status.failure_count + excluded.failure_count`
  )
  const byProduct = store.db.prepare('SELECT * FROM connection_status WHERE product_id = ?')
  return {
    record({ productId, at, credentialId, failure }) {
      upsert.run({
        productId,
        status: failure ? 'failed' : 'verified',
        reason: failure,
        at,
        verifiedAt: failure ? null : at,
        credentialId,
        success: failure ? 0 : 1,
        failure: failure ? 1 : 0
      })
    },
    get(productId) {
      const row = byProduct.get(productId) as ConnectionStatusRow | undefined
      if (!row) return null
      return {
        productId: row.product_id,
        lastStatus: row.last_status,
        lastReason: row.last_reason,
        lastAttemptAt: row.last_attempt_at,
        lastVerifiedAt: row.last_verified_at,
        lastCredentialId: row.last_credential_id,
        attemptCount: row.attempt_count,
        successCount: row.success_count,
        failureCount: row.failure_count
      }
    }
  }
}
