import { Type } from 'typebox'

import { SUBSCRIPTION_STATES } from '../contract/subscriptions'
import { BillingPeriodSchema, LicenseKindSchema, LicenseStatusSchema } from './commerce'
import { Id, Nullable, Ok, Timestamp, TokenField } from './common'
import { ActivationViewSchema, LicenseCodeSchema } from './licensing'

/**
 * The customer library (docs/api.md section 4) and the in-plugin web view, as
 * src/core/library/library-view.ts and webview-view.ts build them. Responses are serialized
 * through these schemas, which drops any field they do not declare: a field the core adds
 * belongs here too (test/unit/schema-agreement.test.ts compares the two types).
 */

const OnThisDevice = Nullable(Type.Boolean({ description: 'null when the request named no instance (`instance_id`).' }))

export const LibraryDownloadSchema = Type.Object({
  file_id: Type.String(),
  version: Type.String(),
  platform: Type.String(),
  filename: Type.String(),
  size_bytes: Type.Integer(),
  url: Type.String({ description: 'The file under /api/downloads, with the download token in its query.' })
})

export const LibraryProductSchema = Type.Object({
  product_id: Type.String(),
  name: Type.String(),
  version: Nullable(Type.String({ description: 'The newest file version; null when the product has no files.' })),
  storefront_slug: Nullable(Type.String()),
  sources: Type.Array(
    Type.Union([
      Type.Literal('purchase'),
      Type.Literal('subscription'),
      Type.Literal('trial'),
      Type.Literal('reseller_claim')
    ]),
    {
      description: 'How the customer came to own it, one entry per kind of entitlement.'
    }
  ),
  entitlement_ids: Type.Array(Type.String()),
  acquired_at: Nullable(Timestamp),
  entitled: Type.Boolean({
    description:
      'True while one of its entitlements still grants downloads: false once every source lapsed (a revoked, refunded or expired license, a trial past its end, a subscription past its grace period).'
  }),
  downloads: Type.Array(LibraryDownloadSchema, { description: 'Newest first; empty when `entitled` is false.' }),
  license_ids: Type.Array(Type.String()),
  activated_on_this_device: OnThisDevice
})

/** A live activation: the library lists no deactivated ones. */
export const LibraryActivationSchema = Type.Omit(ActivationViewSchema, ['deactivated_at'])

export const LibraryLicenseSchema = Type.Object({
  id: Type.String(),
  license_key: Type.String(),
  product_id: Type.String(),
  product_name: Type.String(),
  kind: LicenseKindSchema,
  status: LicenseStatusSchema,
  state: LicenseCodeSchema,
  expires_at: Nullable(Timestamp),
  max_activations: Type.Integer(),
  activation_count: Type.Integer(),
  activations_remaining: Type.Integer(),
  activations: Type.Array(LibraryActivationSchema),
  activated_on_this_device: OnThisDevice
})

export const LibrarySubscriptionSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  product_name: Type.String(),
  plan: BillingPeriodSchema,
  status: Type.Enum([...SUBSCRIPTION_STATES], {
    description:
      'On the emulator clock: active (renews at each period end, or ends there when cancel_at_period_end), past_due (a payment failed; access until grace_until), canceled (ended at the period end after a cancel), expired (the grace period ran out).'
  }),
  current_period_end: Timestamp,
  renews_at: Nullable(Timestamp),
  cancel_at_period_end: Type.Boolean(),
  canceled_at: Nullable(Timestamp),
  grace_until: Type.Union([Timestamp, Type.Null()], {
    description: 'While past_due: when access ends unless a payment succeeds.'
  }),
  ended_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When it stopped granting access (canceled or expired).'
  })
})

export const LibraryOrderItemSchema = Type.Object({
  id: Type.String(),
  product_id: Type.String(),
  product_name: Nullable(Type.String()),
  kind: LicenseKindSchema,
  unit_price_cents: Type.Integer(),
  claimed_at: Nullable(Timestamp)
})

export const LibraryOrderSchema = Type.Object({
  id: Type.String(),
  created_at: Timestamp,
  channel: Type.Union([Type.Literal('direct'), Type.Literal('reseller')]),
  reseller: Nullable(Type.String()),
  storefront_slug: Nullable(Type.String()),
  status: Type.Union([Type.Literal('paid'), Type.Literal('refunded'), Type.Literal('chargeback')], {
    description:
      '`refunded`: the vendor gave the money back; `chargeback`: the bank took it back. Either ends what the order granted.'
  }),
  currency: Type.String(),
  total_cents: Type.Integer(),
  items: Type.Array(LibraryOrderItemSchema)
})

export const MarketingPreferencesSchema = Type.Object({
  newsletter: Type.Boolean(),
  product_updates: Type.Boolean(),
  updated_at: Timestamp
})

export const LibraryProfileSchema = Type.Object({
  customer_id: Type.String(),
  user_id: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  country: Nullable(Type.String()),
  locale: Nullable(Type.String()),
  member_since: Timestamp
})

export const LibrarySupportSchema = Type.Object({
  customer_reference: Type.String(),
  contact_email: Type.String(),
  help_url: Type.String(),
  product_contacts: Type.Array(
    Type.Object({ product_id: Type.String(), product_name: Type.String(), email: Type.String() })
  )
})

export const LibraryPayloadSchema = Type.Object({
  products: Type.Array(LibraryProductSchema),
  subscriptions: Type.Array(LibrarySubscriptionSchema),
  licenses: Type.Array(LibraryLicenseSchema),
  orders: Type.Array(LibraryOrderSchema),
  marketing_preferences: MarketingPreferencesSchema,
  profile: LibraryProfileSchema,
  support: LibrarySupportSchema,
  download_token: Type.String({ description: 'Opens the download links; the same token is in each link.' })
})

export const LibraryResponse = Ok(LibraryPayloadSchema)

/** The library cut down to what a small panel inside a plugin shows. */
export const WebviewPayloadSchema = Type.Object({
  scope: Type.Union([Type.Literal('product'), Type.Literal('library')], {
    description: 'product when the calling product is known.'
  }),
  product_id: Nullable(Type.String()),
  owned: Type.Boolean({
    description:
      'The customer owns the product in scope (any product, for the library scope) through a source that still grants it.'
  }),
  products: Type.Array(
    Type.Object({
      product_id: Type.String(),
      name: Type.String(),
      version: Nullable(Type.String()),
      downloads: Type.Array(Type.Pick(LibraryDownloadSchema, ['platform', 'version', 'size_bytes', 'url']))
    })
  ),
  licenses: Type.Array(
    Type.Pick(LibraryLicenseSchema, [
      'id',
      'license_key',
      'product_id',
      'state',
      'expires_at',
      'activation_count',
      'max_activations',
      'activated_on_this_device'
    ])
  ),
  subscriptions: Type.Array(
    Type.Pick(LibrarySubscriptionSchema, ['id', 'product_id', 'status', 'renews_at', 'current_period_end'])
  ),
  orders: Type.Array(LibraryOrderSchema, { description: 'As in the library; with a calling product, only its items.' }),
  marketing_preferences: MarketingPreferencesSchema,
  profile: Type.Pick(LibraryProfileSchema, ['name', 'email']),
  support: Type.Pick(LibrarySupportSchema, ['contact_email', 'help_url']),
  library_url: Type.String(),
  download_token: Type.String()
})

export const WebviewResponse = Ok(WebviewPayloadSchema)

/** POST /api/library/claim: the claimed item and what it granted. */
export const ClaimResponse = Type.Object({
  ok: Type.Literal(true),
  claimed: Type.Literal(true),
  already_claimed: Type.Boolean(),
  order_item: Type.Object({
    id: Type.String(),
    order_id: Type.String(),
    product_id: Type.String(),
    claimed_at: Type.String()
  }),
  entitlement: Type.Object({
    id: Type.String(),
    product_id: Type.String(),
    source: Type.String(),
    status: Type.String()
  }),
  license: Type.Object({
    id: Type.String(),
    license_key: Type.String(),
    product_id: Type.String(),
    max_activations: Type.Integer()
  })
})

// ---- Requests of the library, the web view library and downloads -----------------------------

/** A library token in the query or a body, under each name clients use (Bearer works too). */
export const libraryTokenFields = {
  token: Type.Optional(TokenField),
  library_token: Type.Optional(TokenField),
  libraryToken: Type.Optional(TokenField)
}
/** One storefront's products only. */
export const storefrontFields = { storefront: Type.Optional(Id), storefrontSlug: Type.Optional(Id) }
/** The device asking: marks what is activated on it. */
export const deviceFields = {
  instance_id: Type.Optional(Id),
  instanceId: Type.Optional(Id),
  machine_id: Type.Optional(Id)
}

/** GET /api/library: the library token, a storefront filter, the device. */
export const LibraryQuery = Type.Object(
  { ...libraryTokenFields, download_token: Type.Optional(TokenField), ...storefrontFields, ...deviceFields },
  { additionalProperties: false }
)

/** The claim token, as `claim` or `claim_token`, in the query or the body. */
export const ClaimFields = Type.Object(
  { claim: Type.Optional(TokenField), claim_token: Type.Optional(TokenField) },
  { additionalProperties: false }
)

export const DownloadParams = Type.Object({ fileId: Id }, { additionalProperties: false })
export const DownloadHeaders = Type.Object({
  range: Type.Optional(
    Type.String({
      description:
        'One byte range (RFC 9110 section 14), e.g. bytes=0-99, bytes=100- or bytes=-100. Several ranges, or another unit, get the whole file.'
    })
  )
})
export const DownloadQuery = Type.Object(
  { download_token: Type.Optional(TokenField), ...libraryTokenFields },
  { additionalProperties: false }
)

/**
 * library-token and webview-library (/api/license/v1): who is asking (a library token, or the
 * product credential headers plus `license_key`), a storefront, the device and, for the web
 * view, a product. The same fields in the query and, for POST, in the body.
 */
export const LibraryContextFields = Type.Object(
  {
    ...libraryTokenFields,
    license_key: Type.Optional(Type.String({ maxLength: 200 })),
    ...deviceFields,
    ...storefrontFields,
    productId: Type.Optional(Id)
  },
  { additionalProperties: false }
)

/** A download's answer: the file's bytes, documented as such (streamed as sent, never serialized). */
export const FileBytesResponse = (description: string) =>
  Type.Unsafe({
    description,
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } }
  })
