import { auditActorId } from '../accounts/actor'
import type { AuditActor } from '../accounts/actor'
import type { Clock } from '../clock/clock'
import { redactJson, redactText } from '../redaction/redact'
import type { Store } from '../store/store'
import { createCredentialAuditRepository } from './credential-audit-repository'
import type { AuditAction, AuditEntry, AuditOutcome } from './credential-audit-repository'

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
  const entries = createCredentialAuditRepository(store)
  return {
    record({ productId, credentialId, action, outcome, actor, reason, metadata }) {
      // Reasons and metadata are free text from callers: a pasted secret must not be kept.
      entries.insert({
        productId,
        credentialId,
        action,
        outcome,
        actorKind: actor.kind,
        actorId: auditActorId(actor),
        reason: reason == null ? null : redactText(reason),
        metadataJson: metadata === undefined ? null : JSON.stringify(redactJson(metadata)),
        at: clock.nowIso()
      })
    },
    list: (productId, { limit = 200 } = {}) => entries.byProduct(productId, limit)
  }
}
