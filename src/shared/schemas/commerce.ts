import { Type } from 'typebox'

import { FILE_PLATFORMS } from '../contract/downloads'
import { LICENSE_CODES, LICENSE_KINDS, LICENSE_STATUSES } from '../contract/licensing'
import {
  BILLING_PERIODS,
  SUBSCRIPTION_ACTIONS,
  SUBSCRIPTION_STATES,
  SUBSCRIPTION_STATUSES
} from '../contract/subscriptions'
import { Email, Id, Nullable, Ok, Timestamp } from './common'

export const CustomerSchema = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  email: Type.String(),
  name: Nullable(Type.String()),
  country: Nullable(Type.String()),
  locale: Nullable(Type.String()),
  developerId: Nullable(Type.String()),
  createdAt: Timestamp
})

export const OrderSchema = Type.Object({
  id: Type.String(),
  customerId: Nullable(Type.String()),
  channel: Type.Union([Type.Literal('direct'), Type.Literal('reseller')]),
  reseller: Nullable(Type.String()),
  storefrontSlug: Nullable(Type.String()),
  status: Type.String({
    description: '`paid`, `refunded` (the vendor gave the money back) or `chargeback` (the bank took it back).'
  }),
  currency: Type.String(),
  totalCents: Type.Integer(),
  createdAt: Timestamp,
  /** When it was refunded or charged back; null while paid. */
  reversedAt: Nullable(Timestamp)
})

export const OrderItemSchema = Type.Object({
  id: Type.String(),
  orderId: Type.String(),
  productId: Type.String(),
  kind: Type.String(),
  unitPriceCents: Type.Integer(),
  claimable: Type.Boolean(),
  claimedByCustomerId: Nullable(Type.String()),
  claimedAt: Nullable(Timestamp)
})

export const EntitlementSchema = Type.Object({
  id: Type.String(),
  customerId: Type.String(),
  productId: Type.String(),
  orderItemId: Nullable(Type.String()),
  source: Type.String(),
  status: Type.String(),
  createdAt: Timestamp
})

export const LicenseKindSchema = Type.Enum([...LICENSE_KINDS])
export const LicenseStatusSchema = Type.Enum([...LICENSE_STATUSES])
export const BillingPeriodSchema = Type.Enum([...BILLING_PERIODS])
export const SubscriptionStateSchema = Type.Enum([...SUBSCRIPTION_STATES])
export const FilePlatformSchema = Type.Enum([...FILE_PLATFORMS])

export const LicenseSchema = Type.Object({
  id: Type.String(),
  key: Type.String(),
  customerId: Type.String(),
  productId: Type.String(),
  entitlementId: Nullable(Type.String()),
  subscriptionId: Nullable(Type.String()),
  kind: LicenseKindSchema,
  status: LicenseStatusSchema,
  expiresAt: Nullable(Timestamp),
  maxActivations: Type.Integer(),
  createdAt: Timestamp
})

/** A license as the control plane answers it: as stored, and how it stands on the emulator clock now. */
export const JudgedLicenseSchema = Type.Object({
  ...LicenseSchema.properties,
  state: Type.Enum([...LICENSE_CODES], {
    description:
      'How the license stands now, on the emulator clock: what validate answers as `code` (a trial past its end is TRIAL_EXPIRED while its stored status stays active).'
  })
})

export const SubscriptionSchema = Type.Object({
  id: Type.String(),
  customerId: Type.String(),
  productId: Type.String(),
  plan: BillingPeriodSchema,
  status: Type.Enum([...SUBSCRIPTION_STATUSES]),
  currentPeriodEnd: Timestamp,
  cancelAtPeriodEnd: Type.Boolean(),
  canceledAt: Nullable(Timestamp),
  paymentFailedAt: Nullable(Timestamp),
  createdAt: Timestamp
})

/** A subscription as stored, and as it stands on the emulator clock now. */
export const SubscriptionStandingResponse = Type.Object({
  ok: Type.Literal(true),
  subscription: SubscriptionSchema,
  standing: Type.Object({
    state: SubscriptionStateSchema,
    currentPeriodEnd: Type.String({
      format: 'date-time',
      description: 'The end of the current paid period, after every renewal the clock has passed.'
    }),
    renewsAt: Nullable(Timestamp),
    cancelAtPeriodEnd: Type.Boolean(),
    graceUntil: Type.Union([Timestamp, Type.Null()], {
      description: 'While past_due: when access ends unless a payment succeeds.'
    }),
    endedAt: Type.Union([Timestamp, Type.Null()], { description: 'When it stopped granting access.' }),
    live: Type.Boolean({ description: 'Grants access now (licensing VALID, downloads allowed).' }),
    accessUntil: Type.String({ format: 'date-time', description: 'Until when access holds with no further event.' })
  }),
  availableActions: Type.Array(Type.Enum([...SUBSCRIPTION_ACTIONS]), {
    description:
      'The actions POST /_emulator/subscriptions/:id/{action} accepts now (200): those the state allows and those already in effect (a repeat changes nothing). The others answer 409 SUBSCRIPTION_STATE_CONFLICT.'
  })
})

export const ActivationSchema = Type.Object({
  id: Type.String(),
  licenseId: Type.String(),
  instanceId: Type.String(),
  instanceName: Nullable(Type.String()),
  platform: Nullable(Type.String()),
  appVersion: Nullable(Type.String()),
  firstSeenAt: Timestamp,
  lastSeenAt: Timestamp,
  deactivatedAt: Nullable(Timestamp)
})

export const ProductFileSchema = Type.Object({
  id: Type.String(),
  productId: Type.String(),
  version: Type.String(),
  platform: FilePlatformSchema,
  filename: Type.String(),
  sizeBytes: Type.Integer(),
  createdAt: Timestamp
})

/** A direct purchase made through the control plane: everything it created. */
export const PurchaseSchema = Type.Object({
  order: OrderSchema,
  item: OrderItemSchema,
  entitlement: EntitlementSchema,
  license: LicenseSchema,
  subscription: Nullable(SubscriptionSchema)
})
export const PurchaseResponse = Ok(PurchaseSchema)

/** A refund or a chargeback: the order and everything it granted, as they stand after it. */
export const OrderReversalSchema = Type.Object({
  order: OrderSchema,
  entitlements: Type.Array(EntitlementSchema, {
    description:
      'What the order granted: they follow the order, so they no longer grant downloads (the library lists the product with `entitled: false`).'
  }),
  licenses: Type.Array(LicenseSchema, { description: 'Revoked: activate and validate answer REVOKED.' }),
  subscriptions: Type.Array(SubscriptionSchema, { description: 'A subscription the order paid for, ended now.' }),
  changed: Type.Boolean({ description: 'False when the order already stood so (the call is idempotent).' })
})
export const OrderReversalResponse = Ok(OrderReversalSchema)

/** A reseller order waiting for its claim; the claim token is shown this once. */
export const ResellerOrderSchema = Type.Object({
  order: OrderSchema,
  item: OrderItemSchema,
  claimToken: Type.String(),
  claimUrl: Type.String()
})
export const ResellerOrderResponse = Ok(ResellerOrderSchema)

/** A reseller order waiting for its claim, as the pending list shows it: its claim link again when it can be opened. */
export const PendingResellerOrderSchema = Type.Object({
  order: OrderSchema,
  item: OrderItemSchema,
  productName: Nullable(Type.String()),
  claimToken: Nullable(
    Type.String({ description: 'The claim token (a secret: shown here and in the UI, never logged or exported).' })
  ),
  claimUrl: Nullable(
    Type.String({ description: 'The claim link, as POST /_emulator/reseller-orders answered it; null when not kept.' })
  ),
  unrecoverableReason: Nullable(
    Type.Union([Type.Literal('not-kept'), Type.Literal('other-runtime-key'), Type.Literal('no-runtime-key')], {
      description:
        'Why the link cannot be shown (null when it can): not-kept (made before claim tokens were kept, schema 10 and older, or imported without one), other-runtime-key (sealed under another runtime key: a copied database, a scenario from another machine), no-runtime-key (the emulator runs without one). The order can still be claimed with the token handed out then.'
    })
  )
})
export const PendingResellerOrderListResponse = Type.Object({
  ok: Type.Literal(true),
  orders: Type.Array(PendingResellerOrderSchema)
})

// ---- Control-plane requests and answers (/_emulator, docs/api.md section 6) -------------------

export const CreateCustomerBody = Type.Object(
  {
    email: Email,
    name: Type.Optional(Type.String({ maxLength: 200 })),
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2 })),
    locale: Type.Optional(Type.String({ maxLength: 35 })),
    newsletter: Type.Optional(Type.Boolean())
  },
  { additionalProperties: false }
)
export const CustomerResponse = Type.Object({ ok: Type.Literal(true), customer: CustomerSchema })
export const CustomerListResponse = Type.Object({ ok: Type.Literal(true), customers: Type.Array(CustomerSchema) })
export const CustomerLibraryTokenResponse = Type.Object({
  ok: Type.Literal(true),
  libraryToken: Type.String(),
  expiresAt: Type.String()
})

const PriceCents = Type.Integer({ minimum: 0, maximum: 100_000_000 })
const MaxActivations = Type.Integer({ minimum: 0, maximum: 1000 })

export const PurchaseBody = Type.Object(
  {
    customerId: Id,
    productId: Id,
    kind: Type.Optional(LicenseKindSchema),
    maxActivations: Type.Optional(MaxActivations),
    expiresAt: Type.Optional(Timestamp),
    plan: Type.Optional(BillingPeriodSchema),
    priceCents: Type.Optional(PriceCents)
  },
  { additionalProperties: false }
)

export const ResellerOrderBody = Type.Object(
  { productId: Id, reseller: Type.Optional(Type.String({ maxLength: 200 })), priceCents: Type.Optional(PriceCents) },
  { additionalProperties: false }
)

/** Suspend, revoke, reinstate or expire a license, or change its activation limit. */
export const LicensePatchBody = Type.Object(
  {
    status: Type.Optional(LicenseStatusSchema),
    expiresAt: Type.Optional(Nullable(Timestamp)),
    maxActivations: Type.Optional(MaxActivations)
  },
  { additionalProperties: false }
)

export const LicenseListQuery = Type.Object(
  {
    productId: Type.Optional(Id),
    customerId: Type.Optional(Id),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 }))
  },
  { additionalProperties: false }
)

export const LicenseResponse = Type.Object({ ok: Type.Literal(true), license: JudgedLicenseSchema })
export const LicenseListResponse = Type.Object({ ok: Type.Literal(true), licenses: Type.Array(JudgedLicenseSchema) })
export const LicenseDetailResponse = Type.Object({
  ok: Type.Literal(true),
  license: JudgedLicenseSchema,
  activations: Type.Array(ActivationSchema)
})

/** Frees the seat one instance holds, as the plugin's deactivate would (the support desk's case). */
export const LicenseDeactivateBody = Type.Object(
  { instanceId: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false }
)
export const LicenseDeactivateResponse = Type.Object({
  ok: Type.Literal(true),
  license: JudgedLicenseSchema,
  activation: ActivationSchema
})

/** A downloadable build added to a product; the emulator serves generated bytes of the given size. */
export const ProductFileBody = Type.Object(
  {
    version: Type.String({ minLength: 1, maxLength: 50 }),
    platform: FilePlatformSchema,
    sizeBytes: Type.Integer({ minimum: 0, maximum: 8 * 1024 * 1024 * 1024 }),
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[^/\\\\"]+$' }))
  },
  { additionalProperties: false }
)
export const ProductFileResponse = Type.Object({ ok: Type.Literal(true), file: ProductFileSchema })
export const ProductFileListResponse = Type.Object({ ok: Type.Literal(true), files: Type.Array(ProductFileSchema) })
