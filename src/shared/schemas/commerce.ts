import { Type } from 'typebox'
import { Nullable, Ok, Timestamp } from './common'
import { LICENSE_KINDS, LICENSE_STATUSES } from '../contract/licensing'
import { SUBSCRIPTION_ACTIONS } from '../contract/subscriptions'

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
  status: Type.String({ description: '`paid`, `refunded` (the vendor gave the money back) or `chargeback` (the bank took it back).' }),
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

export const SubscriptionSchema = Type.Object({
  id: Type.String(),
  customerId: Type.String(),
  productId: Type.String(),
  plan: Type.String(),
  status: Type.String(),
  currentPeriodEnd: Timestamp,
  cancelAtPeriodEnd: Type.Boolean(),
  canceledAt: Nullable(Timestamp),
  paymentFailedAt: Nullable(Timestamp),
  createdAt: Timestamp
})

const SubscriptionStateSchema = Type.Union([Type.Literal('active'), Type.Literal('past_due'), Type.Literal('canceled'), Type.Literal('expired')])

/** A subscription as stored, and as it stands on the emulator clock now. */
export const SubscriptionStandingResponse = Type.Object({
  ok: Type.Literal(true),
  subscription: SubscriptionSchema,
  standing: Type.Object({
    state: SubscriptionStateSchema,
    currentPeriodEnd: Type.String({ format: 'date-time', description: 'The end of the current paid period, after every renewal the clock has passed.' }),
    renewsAt: Nullable(Timestamp),
    cancelAtPeriodEnd: Type.Boolean(),
    graceUntil: Type.Union([Timestamp, Type.Null()], { description: 'While past_due: when access ends unless a payment succeeds.' }),
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
  platform: Type.String(),
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
    description: 'What the order granted: they follow the order, so they no longer grant downloads (the library lists the product with `entitled: false`).'
  }),
  licenses: Type.Array(LicenseSchema, { description: 'Revoked: activate and validate answer REVOKED.' }),
  subscriptions: Type.Array(SubscriptionSchema, { description: 'A subscription the order paid for, ended now.' }),
  changed: Type.Boolean({ description: 'False when the order already stood so (the call is idempotent).' })
})
export const OrderReversalResponse = Ok(OrderReversalSchema)

/** A reseller order waiting for its claim; the claim token is shown this once. */
export const ResellerOrderSchema = Type.Object({ order: OrderSchema, item: OrderItemSchema, claimToken: Type.String(), claimUrl: Type.String() })
export const ResellerOrderResponse = Ok(ResellerOrderSchema)
