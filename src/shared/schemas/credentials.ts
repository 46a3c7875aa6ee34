import { Type } from 'typebox'

import { Id, Nullable, Timestamp } from './common'

const CredentialStatus = Type.Union([Type.Literal('active'), Type.Literal('revoked')])

export const CredentialRecordSchema = Type.Object(
  {
    id: Type.String(),
    productId: Type.String({ description: 'The product this credential belongs to. Not the App ID.' }),
    appId: Type.String({ description: 'Client-distributable product identifier (`app_...`). Not secret.' }),
    pluginKeyPreview: Type.String({ description: 'First 8 and last 4 characters of the plugin key.' }),
    pluginSecretPreview: Type.String({ description: 'First 8 and last 4 characters of the plugin secret.' }),
    apiBaseUrl: Type.String({ description: 'The API base address the client should use.' }),
    status: CredentialStatus,
    isActive: Type.Boolean(),
    createdAt: Timestamp,
    createdBy: Nullable(
      Type.String({ description: 'Developer ID that issued it; null when issued by the emulator control plane.' })
    ),
    lastUsedAt: Nullable(Timestamp),
    hasRecoverableSecret: Type.Boolean({
      description:
        'True when reveal-secret can show the full secret again: a sealed copy exists and the runtime key this emulator runs with opens it.'
    }),
    unrecoverableReason: Nullable(
      Type.Union([Type.Literal('not-kept'), Type.Literal('other-runtime-key'), Type.Literal('no-runtime-key')], {
        description:
          'Why the secret cannot be revealed again (null when it can): not-kept (no recoverable copy was kept), other-runtime-key (sealed under another runtime key: a copied database or a replaced key file), no-runtime-key (the emulator runs without one). Rotating issues new values either way.'
      })
    ),
    rotatedFromId: Nullable(Type.String({ description: 'Rotation metadata: the credential this one replaced.' })),
    replacedById: Nullable(Type.String({ description: 'Rotation metadata: the credential that replaced this one.' })),
    revokedAt: Nullable(Timestamp),
    revokedReason: Nullable(Type.String()),
    revocationCause: Nullable(
      Type.Union([Type.Literal('revoke'), Type.Literal('rotate-key'), Type.Literal('rotate-secret')], {
        description: 'Revocation metadata: an explicit revoke, or the rotation that replaced it.'
      })
    ),
    secretShownOnce: Type.Boolean({
      description: 'One-time reveal metadata: the full secret was returned once at issue.'
    }),
    secretShownOnceAt: Nullable(Timestamp),
    revealCount: Type.Integer({ description: 'How many times reveal-secret returned the full secret.' }),
    lastRevealedAt: Nullable(Timestamp)
  },
  { title: 'CredentialRecord' }
)

export const OneTimeRevealSchema = Type.Object(
  {
    appId: Type.String(),
    pluginKey: Type.String({ description: 'Full plugin key. Shown here and in reveal-secret only.' }),
    pluginSecret: Type.String({ description: 'Full plugin secret. Shown here and in reveal-secret only.' }),
    secret_shown_once: Type.Boolean()
  },
  { title: 'OneTimeReveal' }
)

export const RevealedMaterialSchema = Type.Object(
  {
    appId: Type.String(),
    pluginKey: Type.String(),
    pluginSecret: Type.String(),
    productKey: Type.String({ description: 'Compatibility alias of pluginKey.' }),
    ProductSecret: Type.String({ description: 'Compatibility alias of pluginSecret (exact case).' }),
    secret_shown_once: Type.Boolean()
  },
  { title: 'RevealedMaterial' }
)

// The answers of the credential management routes (docs/api.md section 2).

export const CredentialListResponse = Type.Object({
  ok: Type.Literal(true),
  credentials: Type.Array(CredentialRecordSchema),
  count: Type.Integer()
})

export const CurrentCredentialResponse = Type.Object({
  ok: Type.Literal(true),
  credential: CredentialRecordSchema,
  status: CredentialStatus,
  isActive: Type.Boolean()
})

/** create, and ensure when it had to create: the new credential with its material, once. */
export const IssuedResponse = Type.Object({
  ok: Type.Literal(true),
  credential: CredentialRecordSchema,
  created: Type.Literal(true),
  one_time_reveal: OneTimeRevealSchema
})

/** ensure when an active credential already existed: no material. */
export const ExistingResponse = Type.Object({
  ok: Type.Literal(true),
  credential: CredentialRecordSchema,
  created: Type.Literal(false)
})

export const RevealResponse = Type.Object({
  ok: Type.Literal(true),
  credential: CredentialRecordSchema,
  one_time_reveal: RevealedMaterialSchema
})

export const RotatedResponse = Type.Object({
  ok: Type.Literal(true),
  credential: CredentialRecordSchema,
  one_time_reveal: OneTimeRevealSchema,
  previous_credential: CredentialRecordSchema,
  rotated: Type.Literal(true)
})

export const RevokeResponse = Type.Object({
  ok: Type.Literal(true),
  revoked: Type.Boolean(),
  status: Nullable(CredentialStatus),
  credential: Nullable(CredentialRecordSchema)
})

/** GET /api/developer/plugin-keys/products: optionally one product's credentials. */
export const CredentialListQuery = Type.Object({ productId: Type.Optional(Id) }, { additionalProperties: false })
