/**
 * The credential audit trail's and the connection record's vocabularies: one list each, read by
 * the answers' schemas (src/shared/schemas/control-plane.ts) and by the scenario import
 * (src/core/scenarios/scenario-tables.ts), so whatever an import accepts every answer can carry.
 */
export const AUDIT_ACTIONS = [
  'create',
  'ensure',
  'reveal-secret',
  'rotate-key',
  'rotate-secret',
  'revoke',
  'verify',
  'create-legacy'
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

export const AUDIT_OUTCOMES = ['success', 'failure', 'noop'] as const
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number]

/** Who did it: a developer (management API), the emulator (control plane, a preset), a plugin (verify). */
export const AUDIT_ACTOR_KINDS = ['developer', 'emulator', 'plugin'] as const
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number]

export const CONNECTION_OUTCOMES = ['verified', 'failed'] as const
