import type { LicenseKind, LicenseStatus } from '../../shared/contract/licensing'
import type { BillingPeriod, SubscriptionStatus } from '../../shared/contract/subscriptions'
import type { Store } from '../store/store'

export interface License {
  id: string
  key: string
  customerId: string
  productId: string
  entitlementId: string | null
  subscriptionId: string | null
  kind: LicenseKind
  status: LicenseStatus
  expiresAt: string | null
  maxActivations: number
  createdAt: string
}

export interface Activation {
  id: string
  licenseId: string
  instanceId: string
  instanceName: string | null
  platform: string | null
  appVersion: string | null
  firstSeenAt: string
  lastSeenAt: string
  deactivatedAt: string | null
}

export interface Subscription {
  id: string
  customerId: string
  productId: string
  plan: BillingPeriod
  status: SubscriptionStatus
  currentPeriodEnd: string
  cancelAtPeriodEnd: boolean
  canceledAt: string | null
  /** When the payment that made it past_due failed; null unless past_due. */
  paymentFailedAt: string | null
  createdAt: string
}

export interface LicenseRow {
  id: string
  license_key: string
  customer_id: string
  product_id: string
  entitlement_id: string | null
  subscription_id: string | null
  kind: LicenseKind
  status: LicenseStatus
  expires_at: string | null
  max_activations: number
  created_at: string
}

export interface ActivationRow {
  id: string
  license_id: string
  instance_id: string
  instance_name: string | null
  platform: string | null
  app_version: string | null
  first_seen_at: string
  last_seen_at: string
  deactivated_at: string | null
}

export interface SubscriptionRow {
  id: string
  customer_id: string
  product_id: string
  plan: BillingPeriod
  status: SubscriptionStatus
  current_period_end: string
  cancel_at_period_end: number
  canceled_at: string | null
  payment_failed_at: string | null
  created_at: string
}

export const toLicense = (row: LicenseRow): License => ({
  id: row.id,
  key: row.license_key,
  customerId: row.customer_id,
  productId: row.product_id,
  entitlementId: row.entitlement_id,
  subscriptionId: row.subscription_id,
  kind: row.kind,
  status: row.status,
  expiresAt: row.expires_at,
  maxActivations: row.max_activations,
  createdAt: row.created_at
})

/** A license row with its live activation count and, by LEFT JOIN, one activation's columns (all null without one). */
interface ActivationStateRow {
  live_activation_count: number
  a_id: string | null
  a_instance_id: string | null
  a_instance_name: string | null
  a_platform: string | null
  a_app_version: string | null
  a_first_seen_at: string | null
  a_last_seen_at: string | null
}

export const toActivation = (row: ActivationRow): Activation => ({
  id: row.id,
  licenseId: row.license_id,
  instanceId: row.instance_id,
  instanceName: row.instance_name,
  platform: row.platform,
  appVersion: row.app_version,
  firstSeenAt: row.first_seen_at,
  lastSeenAt: row.last_seen_at,
  deactivatedAt: row.deactivated_at
})

export const toSubscription = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  customerId: row.customer_id,
  productId: row.product_id,
  plan: row.plan,
  status: row.status,
  currentPeriodEnd: row.current_period_end,
  cancelAtPeriodEnd: row.cancel_at_period_end === 1,
  canceledAt: row.canceled_at,
  paymentFailedAt: row.payment_failed_at,
  createdAt: row.created_at
})

export interface NewLicense {
  id: string
  key: string
  customerId: string
  productId: string
  entitlementId: string | null
  subscriptionId: string | null
  kind: LicenseKind
  expiresAt: string | null
  maxActivations: number
  createdAt: string
}

/** A license with what validation needs of its activations, read in one statement. */
export interface ActivationState {
  liveActivationCount: number
  /** The live activation of the instance asked about; null when none, or no instance was named. */
  activation: Activation | null
}

/** The SQL of licenses, activations and subscriptions, prepared once. */
export interface LicenseRepository {
  byKey(key: string): License | null
  /** The licensing hot path: a license's live activation count and one instance's live activation, in one read. */
  activationState(licenseId: string, instanceId: string | null): ActivationState
  byId(id: string): License | null
  forCustomer(customerId: string): License[]
  /** Newest first, filtered by product and/or customer. */
  list(filter: {
    productId?: string | undefined
    customerId?: string | undefined
    limit?: number | undefined
  }): License[]
  insert(license: NewLicense): void
  update(
    id: string,
    changes: {
      status?: LicenseStatus | undefined
      expiresAt?: string | null | undefined
      maxActivations?: number | undefined
    }
  ): void
  liveActivations(licenseId: string): Activation[]
  liveActivationCount(licenseId: string): number
  allActivations(licenseId: string): Activation[]
  liveActivation(licenseId: string, instanceId: string): Activation | null
  insertActivation(activation: Omit<Activation, 'deactivatedAt'>): void
  touchActivation(
    id: string,
    at: string,
    details: { instanceName?: string | null; platform?: string | null; appVersion?: string | null }
  ): void
  deactivate(id: string, at: string): void
  /** The first license granted with an entitlement (null when it has none, as some imported ones). */
  firstOfEntitlement(entitlementId: string): License | null
  subscription(id: string): Subscription | null
  subscriptionsForCustomer(customerId: string): Subscription[]
  insertSubscription(subscription: Subscription): void
  /** Writes a subscription's lifecycle fields (status, period end, cancellation, payment failure). */
  updateSubscription(subscription: Subscription): void
}

/** A license's live activations, kept by the schema's triggers (migration 14): one row read, however many. */
const LIVE_COUNT = (licenseId: string) =>
  `COALESCE((SELECT live FROM live_activation_counts WHERE license_id = ${licenseId}), 0)`

export function createLicenseRepository(store: Store): LicenseRepository {
  const { db } = store
  const byKey = db.prepare('SELECT * FROM licenses WHERE license_key = ?')
  const firstOfEntitlement = db.prepare(
    'SELECT * FROM licenses WHERE entitlement_id = ? ORDER BY created_at, rowid LIMIT 1'
  )
  // The license row itself is kept by the licensing service (it changes rarely); what changes
  // with every activation is read here: the count the triggers keep, and the instance's
  // activation over the partial index of live activations.
  const activationState = db.prepare(
    `SELECT ${LIVE_COUNT('@licenseId')} AS live_activation_count,
            a.id AS a_id, a.instance_id AS a_instance_id, a.instance_name AS a_instance_name, a.platform AS a_platform,
            a.app_version AS a_app_version, a.first_seen_at AS a_first_seen_at, a.last_seen_at AS a_last_seen_at
       FROM (SELECT 1)
       LEFT JOIN activations a INDEXED BY activations_one_live_per_instance
         ON a.license_id = @licenseId AND a.instance_id = @instanceId AND a.deactivated_at IS NULL`
  )
  const byId = db.prepare('SELECT * FROM licenses WHERE id = ?')
  const forCustomer = db.prepare('SELECT * FROM licenses WHERE customer_id = ? ORDER BY created_at, rowid')
  const filtered = db.prepare(
    `SELECT * FROM licenses WHERE (@productId IS NULL OR product_id = @productId) AND (@customerId IS NULL OR customer_id = @customerId)
      ORDER BY created_at DESC, rowid DESC LIMIT @limit`
  )
  const insert = db.prepare(
    `INSERT INTO licenses (id, license_key, customer_id, product_id, entitlement_id, subscription_id, kind, status, expires_at, max_activations, created_at)
     VALUES (@id, @key, @customerId, @productId, @entitlementId, @subscriptionId, @kind, 'active', @expiresAt, @maxActivations, @createdAt)`
  )
  const live = db.prepare(
    'SELECT * FROM activations WHERE license_id = ? AND deactivated_at IS NULL ORDER BY first_seen_at, rowid'
  )
  const all = db.prepare('SELECT * FROM activations WHERE license_id = ? ORDER BY first_seen_at, rowid')
  const liveCount = db.prepare(`SELECT ${LIVE_COUNT('?')} AS n`)
  const liveOne = db.prepare(
    'SELECT * FROM activations WHERE license_id = ? AND instance_id = ? AND deactivated_at IS NULL'
  )
  const insertActivation = db.prepare(
    `INSERT INTO activations (id, license_id, instance_id, instance_name, platform, app_version, first_seen_at, last_seen_at)
     VALUES (@id, @licenseId, @instanceId, @instanceName, @platform, @appVersion, @firstSeenAt, @lastSeenAt)`
  )
  const touch = db.prepare(
    `UPDATE activations SET last_seen_at = @at,
       instance_name = COALESCE(@instanceName, instance_name),
       platform = COALESCE(@platform, platform),
       app_version = COALESCE(@appVersion, app_version)
     WHERE id = @id`
  )
  const deactivate = db.prepare('UPDATE activations SET deactivated_at = ? WHERE id = ? AND deactivated_at IS NULL')
  const subscription = db.prepare('SELECT * FROM subscriptions WHERE id = ?')
  const subscriptionsForCustomer = db.prepare(
    'SELECT * FROM subscriptions WHERE customer_id = ? ORDER BY created_at, rowid'
  )
  const insertSubscription = db.prepare(
    `INSERT INTO subscriptions (id, customer_id, product_id, plan, status, current_period_end, cancel_at_period_end, canceled_at, payment_failed_at, created_at)
     VALUES (@id, @customerId, @productId, @plan, @status, @currentPeriodEnd, @cancelAtPeriodEnd, @canceledAt, @paymentFailedAt, @createdAt)`
  )
  const updateSubscription = db.prepare(
    `UPDATE subscriptions
        SET status = @status, current_period_end = @currentPeriodEnd, cancel_at_period_end = @cancelAtPeriodEnd,
            canceled_at = @canceledAt, payment_failed_at = @paymentFailedAt
      WHERE id = @id`
  )

  const one = <R, T>(row: unknown, map: (r: R) => T): T | null => (row ? map(row as R) : null)

  return {
    byKey: (key) => one(byKey.get(key), toLicense),
    activationState(licenseId, instanceId) {
      const row = activationState.get({ licenseId, instanceId }) as ActivationStateRow
      return {
        liveActivationCount: row.live_activation_count,
        activation:
          row.a_id === null
            ? null
            : {
                id: row.a_id,
                licenseId,
                instanceId: row.a_instance_id as string,
                instanceName: row.a_instance_name,
                platform: row.a_platform,
                appVersion: row.a_app_version,
                firstSeenAt: row.a_first_seen_at as string,
                lastSeenAt: row.a_last_seen_at as string,
                deactivatedAt: null
              }
      }
    },
    byId: (id) => one(byId.get(id), toLicense),
    forCustomer: (customerId) => (forCustomer.all(customerId) as LicenseRow[]).map(toLicense),
    list: ({ productId, customerId, limit }) =>
      (
        filtered.all({
          productId: productId ?? null,
          customerId: customerId ?? null,
          limit: limit ?? 500
        }) as LicenseRow[]
      ).map(toLicense),
    insert: (license) => void insert.run(license),
    update(id, changes) {
      const sets: string[] = []
      const values: Record<string, unknown> = { id }
      if (changes.status !== undefined) {
        sets.push('status = @status')
        values.status = changes.status
      }
      if (changes.expiresAt !== undefined) {
        sets.push('expires_at = @expiresAt')
        values.expiresAt = changes.expiresAt
      }
      if (changes.maxActivations !== undefined) {
        sets.push('max_activations = @maxActivations')
        values.maxActivations = changes.maxActivations
      }
      if (sets.length > 0) db.prepare(`UPDATE licenses SET ${sets.join(', ')} WHERE id = @id`).run(values)
    },
    liveActivations: (licenseId) => (live.all(licenseId) as ActivationRow[]).map(toActivation),
    liveActivationCount: (licenseId) => (liveCount.get(licenseId) as { n: number }).n,
    allActivations: (licenseId) => (all.all(licenseId) as ActivationRow[]).map(toActivation),
    liveActivation: (licenseId, instanceId) => one(liveOne.get(licenseId, instanceId), toActivation),
    insertActivation: (activation) => void insertActivation.run(activation),
    touchActivation: (id, at, details) =>
      void touch.run({
        id,
        at,
        instanceName: details.instanceName ?? null,
        platform: details.platform ?? null,
        appVersion: details.appVersion ?? null
      }),
    deactivate: (id, at) => void deactivate.run(at, id),
    firstOfEntitlement: (entitlementId) => one(firstOfEntitlement.get(entitlementId), toLicense),
    subscription: (id) => one(subscription.get(id), toSubscription),
    subscriptionsForCustomer: (customerId) =>
      (subscriptionsForCustomer.all(customerId) as SubscriptionRow[]).map(toSubscription),
    insertSubscription: (s) => void insertSubscription.run({ ...s, cancelAtPeriodEnd: s.cancelAtPeriodEnd ? 1 : 0 }),
    updateSubscription: (s) =>
      void updateSubscription.run({
        id: s.id,
        status: s.status,
        currentPeriodEnd: s.currentPeriodEnd,
        cancelAtPeriodEnd: s.cancelAtPeriodEnd ? 1 : 0,
        canceledAt: s.canceledAt,
        paymentFailedAt: s.paymentFailedAt
      })
  }
}
