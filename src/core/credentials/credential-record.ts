import type { CredentialRow, CredentialStatus, RevocationCause } from './credential-repository'

/**
 * The credential as every management response shows it: previews and metadata only.
 * Names follow the interface document; rotation, revocation and reveal metadata are ours
 * (documented in the README and the OpenAPI document).
 */
export interface CredentialRecord {
  id: string
  productId: string
  appId: string
  pluginKeyPreview: string
  pluginSecretPreview: string
  apiBaseUrl: string
  status: CredentialStatus
  isActive: boolean
  createdAt: string
  createdBy: string | null
  lastUsedAt: string | null
  /** True when the running emulator's runtime key opens the sealed copy of the secret. */
  hasRecoverableSecret: boolean
  /** Why the secret cannot be revealed again (null when it can). */
  unrecoverableReason: UnrecoverableReason | null
  /** The credential this one replaced by rotation. */
  rotatedFromId: string | null
  /** The credential that replaced this one by rotation. */
  replacedById: string | null
  revokedAt: string | null
  revokedReason: string | null
  /** Why it stopped being active: an explicit revoke, or a rotation of the key or the secret. */
  revocationCause: RevocationCause | null
  /** One-time reveal metadata: the full secret was shown once, when this credential was issued. */
  secretShownOnce: boolean
  secretShownOnceAt: string | null
  /** Later reveals through reveal-secret. */
  revealCount: number
  lastRevealedAt: string | null
}

/**
 * `not-kept`: issued without a recoverable copy (legacy, or imported so) while a runtime key is in use;
 * `other-runtime-key`: sealed under a runtime key other than the one this emulator runs with;
 * `no-runtime-key`: the emulator runs without a runtime key (so none is kept or opened: `--no-runtime-key`).
 */
export type UnrecoverableReason = 'not-kept' | 'other-runtime-key' | 'no-runtime-key'

/** What a record is made of: a credential row without its hashes and sealed material, only whether it has some. */
export type CredentialRecordSource = Pick<
  CredentialRow,
  | 'id'
  | 'product_id'
  | 'app_id'
  | 'key_preview'
  | 'secret_preview'
  | 'status'
  | 'created_at'
  | 'created_by'
  | 'last_used_at'
  | 'rotated_from_id'
  | 'replaced_by_id'
  | 'revoked_at'
  | 'revoked_reason'
  | 'revocation_cause'
  | 'secret_shown_once_at'
  | 'reveal_count'
  | 'last_revealed_at'
  | 'sealed_key_id'
> & { has_sealed_material: boolean }

export const recordSourceOf = (row: CredentialRow): CredentialRecordSource => ({
  ...row,
  has_sealed_material: row.sealed_material !== null
})

/** Whether `runtimeKeyId` (null: no runtime key) can open the row's sealed copy, and if not, why. */
export function unrecoverableReasonOf(
  row: Pick<CredentialRecordSource, 'has_sealed_material' | 'sealed_key_id'>,
  runtimeKeyId: string | null
): UnrecoverableReason | null {
  // Without a runtime key nothing can be kept or opened: the actionable reason comes first.
  if (runtimeKeyId === null) return 'no-runtime-key'
  if (!row.has_sealed_material) return 'not-kept'
  return row.sealed_key_id === runtimeKeyId ? null : 'other-runtime-key'
}

export function toCredentialRecord(
  row: CredentialRecordSource,
  context: { apiBaseUrl: string; runtimeKeyId: string | null }
): CredentialRecord {
  const unrecoverableReason = unrecoverableReasonOf(row, context.runtimeKeyId)
  return {
    id: row.id,
    productId: row.product_id,
    appId: row.app_id,
    pluginKeyPreview: row.key_preview,
    pluginSecretPreview: row.secret_preview,
    apiBaseUrl: context.apiBaseUrl,
    status: row.status,
    isActive: row.status === 'active',
    createdAt: row.created_at,
    createdBy: row.created_by,
    lastUsedAt: row.last_used_at,
    hasRecoverableSecret: unrecoverableReason === null,
    unrecoverableReason,
    rotatedFromId: row.rotated_from_id,
    replacedById: row.replaced_by_id,
    revokedAt: row.revoked_at,
    revokedReason: row.revoked_reason,
    revocationCause: row.revocation_cause,
    secretShownOnce: row.secret_shown_once_at !== null,
    secretShownOnceAt: row.secret_shown_once_at,
    revealCount: row.reveal_count,
    lastRevealedAt: row.last_revealed_at
  }
}
