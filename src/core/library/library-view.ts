import type { Clock } from '../clock/clock'
import type { Customer, CustomerService } from '../customers/customers'
import { entitlementGrants } from '../entitlements/entitlement-access'
import { effectiveExpiry, judgeLicense } from '../licensing/license-judgement'
import type { License, Subscription } from '../licensing/license-repository'
import type { GracePeriod } from '../subscriptions/grace-period'
import { subscriptionStanding } from '../subscriptions/subscription-lifecycle'
import type { SubscriptionStanding } from '../subscriptions/subscription-lifecycle'
import type { LibraryLinks } from './library-links'
import { pushTo } from './library-repository'
import type {
  LibraryActivation,
  LibraryEntitlement,
  LibraryFile,
  LibraryProduct,
  LibraryRepository
} from './library-repository'

/** Options of one library request: storefront filter, the device asking, where links point. */
export interface LibraryQuery {
  storefront?: string | undefined
  instanceId?: string | undefined
  /** Only this product (the in-plugin web view). */
  productId?: string | undefined
  /** Only this developer's products (a vendor library token). */
  vendorId?: string | undefined
  links: LibraryLinks
  downloadToken: string
}

export interface DownloadLink {
  file_id: string
  version: string
  platform: string
  filename: string
  size_bytes: number
  url: string
}

/** Reads one customer's library from the store; the payload groups of docs/api.md section 4. */
export function createLibraryView(deps: {
  clock: Clock
  customers: CustomerService
  queries: Pick<LibraryRepository, 'holdings'>
  grace: GracePeriod
}) {
  const { clock, customers, queries, grace } = deps
  const supportEmail = (product: LibraryProduct) =>
    product.supportEmail ?? `support+${product.storefrontSlug ?? product.id}@plugin-license-emulator.test`

  /** `urlPrefix` is the links' downloadPrefix; `tokenQuery` is `?download_token=<encoded>`: both built once per page, not per link. */
  function downloadLink(file: LibraryFile, urlPrefix: string, tokenQuery: string): DownloadLink {
    return {
      file_id: file.id,
      version: file.version,
      platform: file.platform,
      filename: file.filename,
      size_bytes: file.sizeBytes,
      url: urlPrefix + encodeURIComponent(file.id) + tokenQuery
    }
  }

  /** `now` is one instant for the whole page, so every license on it is judged at the same time. */
  function licenseView(
    license: License,
    product: LibraryProduct,
    subscription: SubscriptionStanding | null,
    live: readonly LibraryActivation[],
    instanceId: string | undefined,
    now: Date
  ) {
    return {
      id: license.id,
      license_key: license.key,
      product_id: license.productId,
      product_name: product.name,
      kind: license.kind,
      status: license.status,
      state: judgeLicense({ license, subscription, productId: license.productId, now }),
      expires_at: effectiveExpiry(license, subscription),
      max_activations: license.maxActivations,
      activation_count: live.length,
      activations_remaining: Math.max(0, license.maxActivations - live.length),
      activations: live.map((a) => ({
        id: a.id,
        instance_id: a.instanceId,
        instance_name: a.instanceName,
        platform: a.platform,
        app_version: a.appVersion,
        first_seen_at: a.firstSeenAt,
        last_seen_at: a.lastSeenAt
      })),
      activated_on_this_device: instanceId === undefined ? null : live.some((a) => a.instanceId === instanceId)
    }
  }

  function subscriptionView(subscription: Subscription, standing: SubscriptionStanding, product: LibraryProduct) {
    return {
      id: subscription.id,
      product_id: subscription.productId,
      product_name: product.name,
      plan: subscription.plan,
      status: standing.state,
      current_period_end: standing.currentPeriodEnd,
      renews_at: standing.renewsAt,
      cancel_at_period_end: standing.cancelAtPeriodEnd,
      canceled_at: subscription.canceledAt,
      grace_until: standing.graceUntil,
      ended_at: standing.endedAt
    }
  }

  function build(customer: Customer, query: LibraryQuery) {
    // A fixed handful of queries, then grouping in memory: cost grows with the library, not its query count.
    // Each group below is one loop over its rows (no filter/map chains), as this runs per row of a large page.
    const held = queries.holdings(customer.id)
    const { storefront, instanceId } = query
    const onlyProductId = query.productId
    const onlyVendorId = query.vendorId
    const now = clock.now()
    const graceMs = grace.ms()
    const inScope = (product: LibraryProduct | undefined): product is LibraryProduct =>
      product !== undefined &&
      (storefront === undefined || product.storefrontSlug === storefront) &&
      (onlyProductId === undefined || product.id === onlyProductId) &&
      (onlyVendorId === undefined || product.developerId === onlyVendorId)
    const ofProductAndVendor = (productId: string) =>
      (onlyProductId === undefined || productId === onlyProductId) &&
      (onlyVendorId === undefined || held.products.get(productId)?.developerId === onlyVendorId)
    const urlPrefix = query.links.downloadPrefix
    const tokenQuery = `?download_token=${encodeURIComponent(query.downloadToken)}`
    const noActivations: readonly LibraryActivation[] = []

    // Each subscription judged once, at one instant, for every group that needs it.
    const standingById = new Map<string, SubscriptionStanding>()
    for (const s of held.subscriptions) standingById.set(s.id, subscriptionStanding(s, now, graceMs))
    const licenseByEntitlement = new Map<string, License>()

    type LicenseView = ReturnType<typeof licenseView>
    const licenseViews: LicenseView[] = []
    const licensesByProduct = new Map<string, LicenseView[]>()
    for (const l of held.licenses) {
      if (l.entitlementId !== null && !licenseByEntitlement.has(l.entitlementId))
        licenseByEntitlement.set(l.entitlementId, l)
      const product = held.products.get(l.productId)
      if (!inScope(product)) continue
      const subscription = l.subscriptionId ? (standingById.get(l.subscriptionId) ?? null) : null
      const view = licenseView(l, product, subscription, held.activations.get(l.id) ?? noActivations, instanceId, now)
      licenseViews.push(view)
      pushTo(licensesByProduct, l.productId, view)
    }

    // In the order each product was first acquired: the product list follows its first entitlement.
    const entitlementsByProduct = new Map<string, LibraryEntitlement[]>()
    for (const e of held.entitlements)
      if (inScope(held.products.get(e.productId))) pushTo(entitlementsByProduct, e.productId, e)
    const ownedProducts: LibraryProduct[] = []
    const productViews = []
    for (const [productId, own] of entitlementsByProduct) {
      const product = held.products.get(productId) as LibraryProduct
      ownedProducts.push(product)
      const productFiles = held.files.get(productId) ?? []
      const ownLicenses = licensesByProduct.get(productId) ?? []
      // Another live source (a second license, a claim) keeps the product downloadable.
      const entitled = own.some((e) => {
        const license = licenseByEntitlement.get(e.id) ?? null
        const subscription = license?.subscriptionId ? (standingById.get(license.subscriptionId) ?? null) : null
        return entitlementGrants({ orderStatus: e.orderStatus, license, subscription }, now)
      })
      const sources: LibraryEntitlement['source'][] = []
      for (const e of own) if (!sources.includes(e.source)) sources.push(e.source)
      productViews.push({
        product_id: product.id,
        name: product.name,
        version: productFiles[0]?.version ?? null,
        storefront_slug: product.storefrontSlug,
        sources,
        entitlement_ids: own.map((e) => e.id),
        acquired_at: own[0]?.createdAt ?? null,
        entitled,
        downloads: entitled ? productFiles.map((f) => downloadLink(f, urlPrefix, tokenQuery)) : [],
        license_ids: ownLicenses.map((l) => l.id),
        activated_on_this_device:
          instanceId === undefined ? null : ownLicenses.some((l) => l.activated_on_this_device === true)
      })
    }

    const subscriptionViews = []
    for (const s of held.subscriptions) {
      const product = held.products.get(s.productId)
      if (inScope(product))
        subscriptionViews.push(subscriptionView(s, standingById.get(s.id) as SubscriptionStanding, product))
    }

    const orderViews = []
    for (const order of held.orders) {
      if (storefront !== undefined && order.storefrontSlug !== storefront) continue
      const narrowed = onlyProductId !== undefined || onlyVendorId !== undefined
      const items = narrowed ? order.items.filter((item) => ofProductAndVendor(item.productId)) : order.items
      if (items.length === 0) continue
      orderViews.push({
        id: order.id,
        created_at: order.createdAt,
        channel: order.channel,
        reseller: order.reseller,
        storefront_slug: order.storefrontSlug,
        status: order.status,
        currency: order.currency,
        total_cents: order.totalCents,
        items: items.map((item) => ({
          id: item.id,
          product_id: item.productId,
          product_name: held.products.get(item.productId)?.name ?? null,
          kind: item.kind,
          unit_price_cents: item.unitPriceCents,
          claimed_at: item.claimedAt
        }))
      })
    }

    const preferences = customers.preferences(customer.id)
    return {
      products: productViews,
      subscriptions: subscriptionViews,
      licenses: licenseViews,
      orders: orderViews,
      marketing_preferences: {
        newsletter: preferences.newsletter,
        product_updates: preferences.productUpdates,
        updated_at: preferences.updatedAt
      },
      profile: {
        customer_id: customer.id,
        user_id: customer.userId,
        email: customer.email,
        name: customer.name,
        country: customer.country,
        locale: customer.locale,
        member_since: customer.createdAt
      },
      support: {
        customer_reference: customer.id,
        contact_email: 'support@plugin-license-emulator.test',
        help_url: query.links.support,
        product_contacts: ownedProducts.map((p) => ({ product_id: p.id, product_name: p.name, email: supportEmail(p) }))
      },
      download_token: query.downloadToken
    }
  }

  return { build }
}

export type LibraryView = ReturnType<typeof createLibraryView>
export type LibraryPayload = ReturnType<LibraryView['build']>
