import type { AuditAction, AuditOutcome } from '../../shared/contract/audit'
import type { AuditActor } from '../accounts/actor'
import type { Store } from '../store/store'

export type { AuditAction, AuditOutcome }

export interface AuditEntry {
  id: number
  productId: string
  credentialId: string | null
  action: AuditAction
  outcome: AuditOutcome
  actorKind: AuditActor['kind']
  actorId: string | null
  reason: string | null
  metadata: unknown
  at: string
}

interface AuditRow {
  id: number
  product_id: string
  credential_id: string | null
  action: AuditAction
  outcome: AuditOutcome
  actor_kind: AuditActor['kind']
  actor_id: string | null
  reason: string | null
  metadata: string | null
  at: string
}

/** One audit entry as written: free text already redacted, metadata as JSON text. */
export type NewAuditEntry = Omit<AuditEntry, 'id' | 'metadata'> & { metadataJson: string | null }

export interface CredentialAuditRepository {
  insert(entry: NewAuditEntry): void
  byProduct(productId: string, limit: number): AuditEntry[]
}

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  productId: row.product_id,
  credentialId: row.credential_id,
  action: row.action,
  outcome: row.outcome,
  actorKind: row.actor_kind,
  actorId: row.actor_id,
  reason: row.reason,
  metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as unknown),
  at: row.at
})

/** The credential audit trail (table credential_audit), newest first. */
export function createCredentialAuditRepository(store: Store): CredentialAuditRepository {
  const insert = store.db.prepare(
    `INSERT INTO credential_audit (product_id, credential_id, action, outcome, actor_kind, actor_id, reason, metadata, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const byProduct = store.db.prepare('SELECT * FROM credential_audit WHERE product_id = ? ORDER BY id DESC LIMIT ?')
  return {
    insert(entry) {
      insert.run(
        entry.productId,
        entry.credentialId,
        entry.action,
        entry.outcome,
        entry.actorKind,
        entry.actorId,
        entry.reason,
        entry.metadataJson,
        entry.at
      )
    },
    byProduct: (productId, limit) => (byProduct.all(productId, limit) as AuditRow[]).map(toEntry)
  }
}
