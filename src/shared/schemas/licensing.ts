import { Type } from 'typebox'

import { LICENSE_CODES } from '../contract/licensing'
import { SUBSCRIPTION_STATES } from '../contract/subscriptions'
import { LicenseKindSchema, LicenseStatusSchema } from './commerce'
import { Nullable, Timestamp } from './common'

export const LicenseCodeSchema = Type.Enum([...LICENSE_CODES], {
  description: 'Licensing outcome (Keygen names where the meaning matches).'
})

export const LicenseViewSchema = Type.Object({
  id: Type.String(),
  license_key: Type.String(),
  product_id: Type.String(),
  kind: LicenseKindSchema,
  status: LicenseStatusSchema,
  expires_at: Nullable(Timestamp),
  max_activations: Type.Integer(),
  activation_count: Type.Integer(),
  activations_remaining: Type.Integer(),
  subscription_status: Nullable(
    Type.Enum([...SUBSCRIPTION_STATES], {
      description: 'For a subscription license, its subscription at the time of the answer; null for other kinds.'
    })
  ),
  grace_until: Type.Union([Timestamp, Type.Null()], {
    description:
      'Set while the subscription is past_due: a payment failed and access lasts until this instant (then EXPIRED). The code stays VALID meanwhile.'
  })
})

export const ActivationViewSchema = Type.Object({
  id: Type.String(),
  instance_id: Type.String(),
  instance_name: Nullable(Type.String()),
  platform: Nullable(Type.String()),
  app_version: Nullable(Type.String()),
  first_seen_at: Timestamp,
  last_seen_at: Timestamp,
  deactivated_at: Nullable(Timestamp)
})

const LicenseKey = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The license serial the customer entered.'
})
const InstanceId = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'A stable id of this machine/installation.'
})
const Nonce = Type.String({ minLength: 1, maxLength: 200, description: 'Echoed in the signed license token.' })

export const ActivateBody = Type.Object(
  {
    license_key: LicenseKey,
    instance_id: InstanceId,
    instance_name: Type.Optional(Type.String({ maxLength: 200 })),
    platform: Type.Optional(Type.String({ maxLength: 50 })),
    app_version: Type.Optional(Type.String({ maxLength: 50 })),
    nonce: Type.Optional(Nonce)
  },
  { additionalProperties: false }
)

export const ValidateBody = Type.Object(
  { license_key: LicenseKey, instance_id: Type.Optional(InstanceId), nonce: Type.Optional(Nonce) },
  { additionalProperties: false }
)

export const DeactivateBody = Type.Object(
  { license_key: LicenseKey, instance_id: InstanceId },
  { additionalProperties: false }
)

export const LibraryTokenResponse = Type.Object({
  ok: Type.Literal(true),
  library_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_at: Timestamp,
  library_url: Type.String(),
  webview_url: Type.String()
})

/** An Ed25519 public key as JWK: the JWKS and the license-token public key both answer it. */
export const JwkSchema = Type.Object({
  kty: Type.String(),
  crv: Type.String(),
  x: Type.String(),
  kid: Type.String(),
  alg: Type.String(),
  use: Type.String()
})

export const ActivateResponse = Type.Object({
  ok: Type.Literal(true),
  activated: Type.Literal(true),
  created: Type.Boolean(),
  code: Type.Literal('VALID'),
  message: Type.String(),
  license: LicenseViewSchema,
  activation: ActivationViewSchema,
  license_token: Type.String()
})

/** Always 200 once authenticated: `valid` and `code` say how the license stands. */
export const ValidateResponse = Type.Object({
  ok: Type.Literal(true),
  valid: Type.Boolean(),
  code: LicenseCodeSchema,
  message: Type.String(),
  license: Type.Optional(LicenseViewSchema),
  activation: Type.Optional(ActivationViewSchema),
  license_token: Type.Optional(Type.String())
})

export const DeactivateResponse = Type.Object({
  ok: Type.Literal(true),
  deactivated: Type.Literal(true),
  license: LicenseViewSchema,
  activation: ActivationViewSchema
})

/** The license-token verification key: PEM (SPKI), raw Ed25519 hex, and JWK. */
export const PublicKeyResponse = Type.Object({
  ok: Type.Literal(true),
  kid: Type.String(),
  alg: Type.Literal('EdDSA'),
  crv: Type.Literal('Ed25519'),
  typ: Type.Literal('license+jwt'),
  public_key_pem: Type.String(),
  public_key_hex: Type.String(),
  jwk: JwkSchema,
  issuer: Type.String({ description: 'The `iss` of every license token; `aud` is the App ID of the product.' })
})

export const JwksResponse = Type.Object({ ok: Type.Literal(true), keys: Type.Array(JwkSchema) })
