import type { DeveloperRole } from '../../shared/contract/accounts'

/** Who is acting on the management API: resolved from a verified developer JWT. */
export interface DeveloperActor {
  kind: 'developer'
  developerId: string
  role: DeveloperRole
}

/** Who is recorded in the audit trail for an action. */
export type AuditActor =
  | DeveloperActor
  | { kind: 'emulator' } // the control plane (QA scripts, the desktop UI's own tools)
  | { kind: 'plugin' } // a plugin presenting product credentials

export function auditActorId(actor: AuditActor): string | null {
  return actor.kind === 'developer' ? actor.developerId : null
}
