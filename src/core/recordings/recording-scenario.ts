import { FILE_PLATFORMS } from '../../shared/contract/downloads'
import { LICENSE_KINDS, LICENSE_STATUSES } from '../../shared/contract/licensing'
import { BILLING_PERIODS, SUBSCRIPTION_STATES } from '../../shared/contract/subscriptions'
import type { BillingPeriod, SubscriptionState } from '../../shared/contract/subscriptions'
import { sha256Hex } from '../crypto/digest'
import { DomainError } from '../errors/domain-error'
import { previewOf } from '../redaction/redact'
import { SCENARIO_FORMAT, SCENARIO_VERSION } from '../scenarios/scenario-schema'
import type { ScenarioDocument, ScenarioRow } from '../scenarios/scenario-schema'
import { DEFAULT_GRACE_DAYS } from '../subscriptions/subscription-lifecycle'
import type { Fingerprinter } from './fingerprints'
import type { RecordedExchange, RecordingDocument } from './recording-format'

export interface ScenarioNote {
  field: string
  note: string
}

export interface RecordingScenarioInput {
  fingerprints: Fingerprinter
  /** The plugin's credential, given by the user: checked against the recording, kept only as hashes. */
  pluginKey: string | null
  pluginSecret: string | null
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)
const int = (value: unknown): number | null =>
  Number.isInteger(value) && (value as number) >= 0 ? (value as number) : null
const oneOf = <T extends string>(values: readonly T[], value: unknown): T | null =>
  values.includes(value as T) ? (value as T) : null

const SYNTHETIC_DEVELOPER = 'dev_recorded'
const SYNTHETIC_CUSTOMER = 'cus_recorded'
const DAY_MS = 24 * 60 * 60 * 1000

/** A subscription as an answer showed it: its state on the platform's clock, and what the answer revealed. */
interface SeenSubscription {
  state: SubscriptionState
  plan: BillingPeriod | null
  currentPeriodEnd: string | null
  cancelAtPeriodEnd: boolean
  canceledAt: string | null
  /** While past_due or expired: when access ends (or ended) for want of a payment. */
  graceUntil: string | null
}

/**
 * The scenario row that stands as `seen` stood. Only three statuses are stored (an `expired` one is
 * judged from the clock): past_due and expired become past_due with the payment failed one default
 * grace period before the grace end shown, so the emulator judges the same state at the same time.
 */
function subscriptionRow(id: string, productId: string, seen: SeenSubscription, at: string): ScenarioRow {
  const row: ScenarioRow = {
    id,
    customerId: SYNTHETIC_CUSTOMER,
    productId,
    plan: seen.plan ?? 'monthly',
    status: seen.state === 'canceled' ? 'canceled' : 'active',
    currentPeriodEnd: seen.currentPeriodEnd ?? at,
    cancelAtPeriodEnd: seen.cancelAtPeriodEnd || seen.state === 'canceled',
    canceledAt: seen.canceledAt,
    createdAt: at
  }
  if (seen.state === 'past_due' || seen.state === 'expired') {
    const failedAt =
      seen.graceUntil === null
        ? null
        : new Date(Date.parse(seen.graceUntil) - DEFAULT_GRACE_DAYS * DAY_MS).toISOString()
    row.status = 'past_due'
    row.paymentFailedAt = failedAt
    // A payment fails at a period end: without the period end shown, the failure stands in for it.
    row.currentPeriodEnd = seen.currentPeriodEnd ?? failedAt ?? at
  }
  return row
}

/**
 * A scenario document from what a recording's answers reveal (docs/upstream.md): products and
 * App IDs from the connection verification and the licensing calls' App ID header, the library's
 * products, files, licenses, subscriptions, orders and profile, and each license as validate and
 * activate first showed it. Licenses and activations are taken as they were before the recorded
 * flow changed them (an activation the flow created is left out), so the flow replayed against
 * the scenario answers what it answered when recorded. `notes` says what was assumed.
 */
export function scenarioFromRecording(
  document: RecordingDocument,
  input: RecordingScenarioInput
): { scenario: ScenarioDocument; notes: ScenarioNote[] } {
  const notes: ScenarioNote[] = []
  const at = document.startedAt
  const products = new Map<string, { name: string | null; appId: string | null; storefrontSlug: string | null }>()
  const licenses = new Map<string, ScenarioRow>()
  const activations = new Map<string, ScenarioRow>()
  const createdByFlow = new Set<string>()
  const files = new Map<string, ScenarioRow>()
  const subscriptions = new Map<string, ScenarioRow>()
  /** Each license's subscription as a licensing answer first showed it: the answer, or null for none. */
  const subscriptionShown = new Map<string, Json | null>()
  const orders = new Map<string, ScenarioRow>()
  const orderItems = new Map<string, ScenarioRow>()
  const entitled = new Set<string>()
  let customer: ScenarioRow | null = null

  const product = (id: string) => {
    let entry = products.get(id)
    if (!entry) products.set(id, (entry = { name: null, appId: null, storefrontSlug: null }))
    return entry
  }

  const seeLicense = (view: Json) => {
    const id = str(view.id)
    const productId = str(view.product_id)
    if (id === null || productId === null) return
    // Only a licensing answer says whether a license has a subscription; the library may have shown the license first.
    if ('subscription_status' in view && !subscriptionShown.has(id))
      subscriptionShown.set(id, str(view.subscription_status) !== null ? view : null)
    if (licenses.has(id)) return
    product(productId)
    if (str(view.product_name)) product(productId).name ??= str(view.product_name)
    licenses.set(id, {
      id,
      key: str(view.license_key) ?? id,
      customerId: SYNTHETIC_CUSTOMER,
      productId,
      kind: oneOf(LICENSE_KINDS, view.kind) ?? 'perpetual',
      status: oneOf(LICENSE_STATUSES, view.status) ?? 'active',
      expiresAt: str(view.expires_at),
      maxActivations: int(view.max_activations) ?? 2,
      createdAt: at
    })
  }

  const seeActivation = (licenseId: string, view: Json) => {
    const id = str(view.id)
    const instanceId = str(view.instance_id)
    if (id === null || instanceId === null || activations.has(id)) return
    activations.set(id, {
      id,
      licenseId,
      instanceId,
      instanceName: str(view.instance_name),
      platform: str(view.platform),
      appVersion: str(view.app_version),
      firstSeenAt: str(view.first_seen_at) ?? at,
      lastSeenAt: str(view.last_seen_at) ?? at,
      // As it was before the flow: a deactivation the flow made is the flow's to repeat.
      deactivatedAt: null
    })
  }

  for (const exchange of document.exchanges) {
    const body = exchange.response.body.kind === 'json' ? exchange.response.body.json : null
    if (!isObject(body) || exchange.response.status >= 400) continue
    const path = exchange.request.path
    const appId = appIdOf(exchange)

    if (isObject(body.connection)) {
      const productId = str(body.connection.productId)
      if (productId) product(productId).appId ??= str(body.connection.appId)
    }
    if (isObject(body.license)) {
      seeLicense(body.license)
      const licenseId = str(body.license.id)
      const productId = str(body.license.product_id)
      if (productId && appId) product(productId).appId ??= appId
      if (licenseId && isObject(body.activation)) {
        const activationId = str(body.activation.id)
        if (body.created === true && activationId) createdByFlow.add(activationId)
        seeActivation(licenseId, body.activation)
      }
    }
    if (path.startsWith('/api/library') && Array.isArray(body.products)) {
      readLibrary(body)
    }
  }

  function readLibrary(body: Json) {
    if (isObject(body.profile) && customer === null) {
      const profile = body.profile
      customer = {
        id: str(profile.customer_id) ?? SYNTHETIC_CUSTOMER,
        userId: str(profile.user_id) ?? 'usr_recorded',
        email: str(profile.email) ?? 'customer@example.invalid',
        name: str(profile.name),
        country: str(profile.country),
        locale: str(profile.locale),
        createdAt: str(profile.member_since) ?? at
      }
    }
    for (const item of body.products as unknown[]) {
      if (!isObject(item) || !str(item.product_id)) continue
      const entry = product(item.product_id as string)
      entry.name ??= str(item.name)
      entry.storefrontSlug ??= str(item.storefront_slug)
      if (item.entitled === true) entitled.add(item.product_id as string)
      for (const download of Array.isArray(item.downloads) ? item.downloads : []) {
        if (!isObject(download) || !str(download.file_id)) continue
        const platform = oneOf(FILE_PLATFORMS, download.platform)
        if (platform === null) continue
        files.set(download.file_id as string, {
          id: download.file_id,
          productId: item.product_id,
          version: str(download.version) ?? '1.0.0',
          platform,
          filename: str(download.filename) ?? `${String(download.file_id)}.bin`,
          sizeBytes: int(download.size_bytes) ?? 0,
          createdAt: at
        })
      }
    }
    for (const view of Array.isArray(body.licenses) ? body.licenses : []) {
      if (!isObject(view)) continue
      seeLicense(view)
      for (const activation of Array.isArray(view.activations) ? view.activations : [])
        if (isObject(activation) && str(view.id)) seeActivation(view.id as string, activation)
    }
    for (const view of Array.isArray(body.subscriptions) ? body.subscriptions : []) {
      if (!isObject(view) || !str(view.id) || !str(view.product_id) || subscriptions.has(view.id as string)) continue
      const seen: SeenSubscription = {
        state: oneOf(SUBSCRIPTION_STATES, view.status) ?? 'canceled',
        plan: oneOf(BILLING_PERIODS, view.plan) ?? 'monthly',
        currentPeriodEnd: str(view.current_period_end),
        cancelAtPeriodEnd: view.cancel_at_period_end === true,
        canceledAt: str(view.canceled_at),
        graceUntil: str(view.grace_until)
      }
      subscriptions.set(view.id as string, subscriptionRow(view.id as string, view.product_id as string, seen, at))
      if (seen.state === 'past_due' || seen.state === 'expired')
        notes.push({
          field: `subscriptions[${String(view.id)}].paymentFailedAt`,
          note: `Not revealed, nor the platform's grace period: taken as ${DEFAULT_GRACE_DAYS} days (the emulator's default grace) before the recorded grace_until.`
        })
    }
    for (const view of Array.isArray(body.orders) ? body.orders : []) {
      if (!isObject(view) || !str(view.id)) continue
      orders.set(view.id as string, {
        id: view.id,
        customerId: SYNTHETIC_CUSTOMER,
        channel: view.channel === 'reseller' ? 'reseller' : 'direct',
        reseller: str(view.reseller),
        storefrontSlug: str(view.storefront_slug),
        status: oneOf(['paid', 'refunded', 'chargeback'] as const, view.status) ?? 'paid',
        currency: str(view.currency) ?? 'USD',
        totalCents: int(view.total_cents) ?? 0,
        createdAt: str(view.created_at) ?? at
      })
      for (const item of Array.isArray(view.items) ? view.items : []) {
        if (!isObject(item) || !str(item.id) || !str(item.product_id)) continue
        product(item.product_id as string)
        orderItems.set(item.id as string, {
          id: item.id,
          orderId: view.id,
          productId: item.product_id,
          kind: oneOf(LICENSE_KINDS, item.kind) ?? 'perpetual',
          unitPriceCents: int(item.unit_price_cents) ?? 0,
          claimedAt: str(item.claimed_at)
        })
      }
    }
  }

  linkSubscriptions()

  /**
   * No answer names a license's subscription. A license a licensing answer showed with a
   * subscription (or, with no licensing answer, a subscription license) is linked to the library's
   * subscription to its product; one the library did not list is made from the license answer,
   * which shows its state and when access ends (expires_at, grace_until) but not its plan or id.
   */
  function linkSubscriptions() {
    const taken = new Set<string>()
    let made = 0
    for (const [licenseId, license] of licenses) {
      const shown = subscriptionShown.get(licenseId)
      // Shown without one (null): on the platform it has none, whatever its kind.
      if (shown === null || (shown === undefined && license.kind !== 'subscription')) continue
      const listed = [...subscriptions.values()].find(
        (row) => row.productId === license.productId && !taken.has(row.id as string)
      )
      if (listed) {
        taken.add(listed.id as string)
        license.subscriptionId = listed.id
        notes.push({
          field: `licenses[${licenseId}].subscriptionId`,
          note: `No answer names a license's subscription: linked to ${String(listed.id)}, the library's subscription to the same product.`
        })
        continue
      }
      if (shown === undefined) continue
      const state = oneOf(SUBSCRIPTION_STATES, shown.subscription_status) ?? 'active'
      const accessUntil = str(shown.expires_at)
      const lapsing = state === 'past_due' || state === 'expired'
      made += 1
      const id = `sub_recorded${made}`
      const seen: SeenSubscription = {
        state,
        plan: null,
        // While it grants (or after it was canceled) a subscription license's expires_at is the period end.
        currentPeriodEnd: lapsing ? null : accessUntil,
        cancelAtPeriodEnd: false,
        canceledAt: null,
        graceUntil: lapsing ? (str(shown.grace_until) ?? accessUntil) : null
      }
      subscriptions.set(id, subscriptionRow(id, license.productId as string, seen, at))
      taken.add(id)
      license.subscriptionId = id
      notes.push(
        {
          field: `subscriptions[${id}]`,
          note: `No library answer listed it: made from license ${licenseId}'s answer (subscription_status "${state}"), under a made-up id.`
        },
        { field: `subscriptions[${id}].plan`, note: 'Not revealed by a license answer: monthly is assumed.' },
        lapsing
          ? {
              field: `subscriptions[${id}].paymentFailedAt`,
              note: `Not revealed, nor the platform's grace period: taken as ${DEFAULT_GRACE_DAYS} days (the emulator's default grace) before the recorded grace_until; the period end is taken to be that failure.`
            }
          : {
              field: `subscriptions[${id}].currentPeriodEnd`,
              note:
                state === 'canceled'
                  ? "The license answer's expires_at (when the canceled subscription ended); when it was canceled is not revealed."
                  : "The license answer's expires_at (the end of the paid period); whether it is set to cancel there is not revealed: it is assumed to renew."
            },
        { field: `subscriptions[${id}].createdAt`, note: 'Not revealed: the start of the recording is used.' }
      )
    }
  }

  const customerRow: ScenarioRow = customer ?? {
    id: SYNTHETIC_CUSTOMER,
    userId: 'usr_recorded',
    email: 'customer@example.invalid',
    createdAt: at
  }
  if (customer === null)
    notes.push({
      field: 'customers',
      note: 'No library answer was recorded: one customer is assumed to own every license.'
    })
  const customerId = customerRow.id as string
  for (const rows of [licenses, subscriptions, orders]) for (const row of rows.values()) row.customerId = customerId

  // Activations the recorded flow created are its own to make again.
  for (const id of createdByFlow) activations.delete(id)

  notes.push({
    field: 'developers',
    note: `The owning developer is never revealed to a plugin: one developer (${SYNTHETIC_DEVELOPER}) is assumed to own every product.`
  })
  const productRows: ScenarioRow[] = []
  for (const [id, entry] of products) {
    if (entry.appId === null)
      notes.push({
        field: `products[${id}].appId`,
        note: 'No answer or request named its App ID: a placeholder is used.'
      })
    if (entry.name === null)
      notes.push({ field: `products[${id}].name`, note: 'No answer named it: the product id stands in.' })
    productRows.push({
      id,
      developerId: SYNTHETIC_DEVELOPER,
      name: entry.name ?? id,
      appId: entry.appId ?? `app_${id.replace(/[^A-Za-z0-9]/g, '')}`,
      storefrontSlug: entry.storefrontSlug,
      createdAt: at
    })
  }

  const credentials = credentialRows(document, input, productRows, notes, at)
  const entitlements: ScenarioRow[] = [...entitled].map((productId, index) => ({
    id: `ent_recorded${index + 1}`,
    customerId,
    productId,
    source: 'purchase',
    status: 'active',
    createdAt: at
  }))
  if (entitlements.length > 0)
    notes.push({
      field: 'entitlements',
      note: 'The library shows only that a product is owned: each is assumed to be a purchase.'
    })
  if (files.size > 0)
    notes.push({
      field: 'files',
      note: "File contents are never recorded whole: the emulator's generated builds stand in, at the recorded size."
    })
  notes.push({
    field: 'licenses[].createdAt',
    note: 'Not revealed: the start of the recording is used.'
  })

  const scenario: ScenarioDocument = {
    format: SCENARIO_FORMAT,
    version: SCENARIO_VERSION,
    name: `From recording ${document.name}`.slice(0, 200),
    description: `Made from recording ${document.id} (${document.exchanges.length} exchanges, started ${document.startedAt}).`,
    developers: [
      {
        id: SYNTHETIC_DEVELOPER,
        email: 'developer@example.invalid',
        name: 'Recorded developer',
        role: 'developer',
        createdAt: at
      }
    ],
    products: productRows,
    credentials,
    customers: [customerRow],
    orders: [...orders.values()],
    orderItems: [...orderItems.values()],
    subscriptions: [...subscriptions.values()],
    entitlements,
    licenses: [...licenses.values()],
    activations: [...activations.values()],
    files: [...files.values()]
  }
  return { scenario, notes }
}

/** The App ID a licensing request sent (kept plain: an App ID is no secret). */
function appIdOf(exchange: RecordedExchange): string | null {
  for (const [name, value] of Object.entries(exchange.request.headers))
    if (name.endsWith('-app-id') && typeof value === 'string') return value
  return null
}

/** Every fingerprint the recorded requests carry. */
function presentedFingerprints(document: RecordingDocument): Set<string> {
  const found = new Set<string>()
  const text = JSON.stringify(document.exchanges.map((exchange) => exchange.request))
  for (const match of text.matchAll(/fp\.[A-Za-z]+\.[0-9a-f]{64}/g)) found.add(match[0])
  return found
}

function credentialRows(
  document: RecordingDocument,
  input: RecordingScenarioInput,
  products: ScenarioRow[],
  notes: ScenarioNote[],
  at: string
): ScenarioRow[] {
  const { pluginKey, pluginSecret } = input
  if (pluginKey === null || pluginSecret === null) {
    notes.push({
      field: 'credentials',
      note: 'The recording holds only fingerprints of the plugin credential: give pluginKey and pluginSecret to carry it (as hashes).'
    })
    return []
  }
  const presented = presentedFingerprints(document)
  for (const [field, value, header] of [
    ['pluginKey', pluginKey, 'plugin-key'],
    ['pluginSecret', pluginSecret, 'plugin-secret']
  ] as const) {
    // As its header gave it (any shape), or as a body gave it where its shape gave it away.
    const prints = [input.fingerprints.asCredentialHeader(value, header), input.fingerprints.text(value)]
    if (!prints.some((print) => print !== null && presented.has(print))) {
      throw new DomainError('VALIDATION_ERROR', `The ${field} given is not one the recording's requests presented.`, {
        details: { details: [{ location: 'body', path: `/${field}`, problem: 'not the recorded credential' }] }
      })
    }
  }
  const product = products.length === 1 ? products[0] : undefined
  if (!product) {
    notes.push({
      field: 'credentials',
      note: 'The recording names no single product for the credential: it is left out.'
    })
    return []
  }
  notes.push({
    field: 'credentials',
    note: 'Kept as SHA-256 hashes of the key and secret you gave: the emulator checks a presented credential against them; its secret cannot be revealed.'
  })
  return [
    {
      id: 'cred_recorded',
      productId: product.id,
      appId: product.appId,
      keyHash: sha256Hex(pluginKey),
      secretHash: sha256Hex(pluginSecret),
      keyPreview: previewOf(pluginKey),
      secretPreview: previewOf(pluginSecret),
      status: 'active',
      createdAt: at
    }
  ]
}
