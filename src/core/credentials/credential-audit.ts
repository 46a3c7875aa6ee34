import type { Store } from '../store/store'
import type { Clock } from '../clock/clock'
import { auditActorId } from '../accounts/actor'
import type { AuditActor } from '../accounts/actor'
import { redactJson, redactText } from '../redaction/redact'

export type AuditAction = 'create' | 'ensure' | 'reveal-secret' | 'rotate-key' | 'rotate-secret' | 'revoke' | 'verify' | 'create-legacy'

export type AuditOutcome = 'success' | 'failure' | 'noop'

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

export interface AuditRecordInput {
  productId: string
  credentialId: string | null
  action: AuditAction
  outcome: AuditOutcome
  actor: AuditActor
  reason?: string | null | undefined
  metadata?: unknown
}

export interface CredentialAudit {
  record(input: AuditRecordInput): void
  list(productId: string, options?: { limit?: number }): AuditEntry[]
}

export function createCredentialAudit(store: Store, clock: Clock): CredentialAudit {
  const insert = store.db.prepare(
    `INSERT INTO credential_audit (product_id, credential_id, action, outcome, actor_kind, actor_id, reason, metadata, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  const byProduct = store.db.prepare('SELECT * FROM credential_audit WHERE product_id = ? ORDER BY id DESC LIMIT ?')
  return {
    record({ productId, credentialId, action, outcome, actor, reason, metadata }) {
      // Reasons and metadata are free text from callers: a pasted secret must not be kept.
      insert.run(
        productId,
        credentialId,
        action,
        outcome,
        actor.kind,
        auditActorId(actor),
        reason == null ? null : redactText(reason),
        metadata === undefined ? null : JSON.stringify(redactJson(metadata)),
        clock.nowIso()
      )
    },
    list(productId, { limit = 200 } = {}) {
      return (byProduct.all(productId, limit) as AuditRow[]).map((row) => ({
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
      }))
    }
  }
}
