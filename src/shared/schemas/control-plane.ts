import { Type } from 'typebox'

import { DEVELOPER_ROLES } from '../contract/accounts'
import { AUDIT_ACTOR_KINDS, AUDIT_OUTCOMES, CONNECTION_OUTCOMES } from '../contract/audit'
import { Email, Id, Nullable, Ok, Timestamp } from './common'
import { CredentialRecordSchema } from './credentials'

export const DeveloperSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  role: Type.Enum([...DEVELOPER_ROLES]),
  createdAt: Timestamp
})

export const ProductSchema = Type.Object({
  id: Type.String(),
  developerId: Type.String(),
  name: Type.String(),
  appId: Type.String(),
  storefrontSlug: Nullable(Type.String()),
  createdAt: Timestamp
})

export const IdParams = Type.Object({ id: Id }, { additionalProperties: false })

/** GET /_emulator/products: every product, or those one developer sees. */
export const ProductListQuery = Type.Object(
  {
    visibleTo: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'A developer id: only the products that developer sees on the management API (their own; every product for an admin).'
      })
    )
  },
  { additionalProperties: false }
)

/** A minted JWT (developer or customer user) and when it expires. */
export const SessionSchema = Type.Object({ token: Type.String(), expiresAt: Timestamp })
export const SessionResponse = Ok(SessionSchema)

/** Body of the session-minting routes (developer and customer). */
export const SessionBody = Type.Object(
  {
    ttlS: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 30 * 24 * 60 * 60, description: 'Lifetime in seconds (default 12 h).' })
    )
  },
  { additionalProperties: false }
)

export const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  productId: Type.String(),
  credentialId: Nullable(Type.String()),
  action: Type.String(),
  outcome: Type.Union(AUDIT_OUTCOMES.map((value) => Type.Literal(value))),
  actorKind: Type.Union(AUDIT_ACTOR_KINDS.map((value) => Type.Literal(value))),
  actorId: Nullable(Type.String()),
  reason: Nullable(Type.String()),
  metadata: Type.Unknown(),
  at: Timestamp
})

export const ConnectionStatusSchema = Type.Object({
  productId: Type.String(),
  lastStatus: Type.Union(CONNECTION_OUTCOMES.map((value) => Type.Literal(value))),
  lastReason: Nullable(Type.String()),
  lastAttemptAt: Timestamp,
  lastVerifiedAt: Nullable(Timestamp),
  lastCredentialId: Nullable(Type.String()),
  attemptCount: Type.Integer(),
  successCount: Type.Integer(),
  failureCount: Type.Integer()
})

// ---- Developers and products (POST /_emulator/developers, /products) -------------------------

export const CreateDeveloperBody = Type.Object(
  {
    email: Email,
    name: Type.Optional(Type.String({ maxLength: 200 })),
    role: Type.Optional(Type.Enum([...DEVELOPER_ROLES]))
  },
  { additionalProperties: false }
)
export const DeveloperResponse = Type.Object({ ok: Type.Literal(true), developer: DeveloperSchema })
export const DeveloperListResponse = Type.Object({ ok: Type.Literal(true), developers: Type.Array(DeveloperSchema) })

export const CreateProductBody = Type.Object(
  {
    developerId: Id,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    storefrontSlug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9][a-z0-9-]*$' }))
  },
  { additionalProperties: false }
)
export const ProductResponse = Type.Object({ ok: Type.Literal(true), product: ProductSchema })
export const ProductListResponse = Type.Object({ ok: Type.Literal(true), products: Type.Array(ProductSchema) })

/** An active credential issued with no recoverable secret, as older credentials are. */
export const LegacyCredentialResponse = Type.Object({
  ok: Type.Literal(true),
  credential: CredentialRecordSchema,
  oneTimeReveal: Type.Object({ appId: Type.String(), pluginKey: Type.String(), pluginSecret: Type.String() })
})
export const ProductCredentialsResponse = Type.Object({
  ok: Type.Literal(true),
  credentials: Type.Array(CredentialRecordSchema)
})
export const ProductAuditResponse = Type.Object({ ok: Type.Literal(true), entries: Type.Array(AuditEntrySchema) })
export const ProductConnectionResponse = Type.Object({
  ok: Type.Literal(true),
  connection: Nullable(ConnectionStatusSchema)
})
