import { Type } from 'typebox'
import { Nullable, Ok, Timestamp } from './common'

export const DeveloperSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  role: Type.Union([Type.Literal('developer'), Type.Literal('admin')]),
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

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false })

/** GET /_emulator/products: every product, or those one developer sees. */
export const ProductListQuery = Type.Object(
  {
    visibleTo: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'A developer id: only the products that developer sees on the management API (their own; every product for an admin).'
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
  { ttlS: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 * 24 * 60 * 60, description: 'Lifetime in seconds (default 12 h).' })) },
  { additionalProperties: false }
)

export const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  productId: Type.String(),
  credentialId: Nullable(Type.String()),
  action: Type.String(),
  outcome: Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('noop')]),
  actorKind: Type.Union([Type.Literal('developer'), Type.Literal('emulator'), Type.Literal('plugin')]),
  actorId: Nullable(Type.String()),
  reason: Nullable(Type.String()),
  metadata: Type.Unknown(),
  at: Timestamp
})

export const ConnectionStatusSchema = Type.Object({
  productId: Type.String(),
  lastStatus: Type.Union([Type.Literal('verified'), Type.Literal('failed')]),
  lastReason: Nullable(Type.String()),
  lastAttemptAt: Timestamp,
  lastVerifiedAt: Nullable(Timestamp),
  lastCredentialId: Nullable(Type.String()),
  attemptCount: Type.Integer(),
  successCount: Type.Integer(),
  failureCount: Type.Integer()
})
