import type { Clock } from '../clock/clock'
import type { Product } from '../products/products'
import type { Customer, CustomerService } from '../customers/customers'
import type { Activation, License, Subscription } from '../licensing/license-rows'
import { effectiveExpiry, judgeLicense } from '../licensing/license-judgement'
import type { ProductFile } from '../downloads/product-files'
import { groupBy } from './library-queries'
import type { LibraryQueries } from './library-queries'

/** Options of one library request: storefront filter, the device asking, where links point. */
export interface LibraryQuery {
  storefront?: string | undefined
  instanceId?: string | undefined
  /** Only this product (the in-plugin web view). */
  productId?: string | undefined
  baseUrl: string
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

/** Reads one customer's library from the store; the payload groups of decisions.md section 4. */
export function createLibraryView(deps: { clock: Clock; customers: CustomerService; queries: LibraryQueries }) {
  const { clock, customers, queries } = deps
  const supportEmail = (product: Product) => product.supportEmail ?? `support+${product.storefrontSlug ?? product.id}@plugin-license-emulator.test`

  /** `tokenQuery` is `download_token=<encoded>`, encoded once per page rather than once per link. */
  function downloadLink(file: ProductFile, query: LibraryQuery, tokenQuery: string): DownloadLink {
    return {
      file_id: file.id,
      version: file.version,
      platform: file.platform,
      filename: file.filename,
      size_bytes: file.sizeBytes,
      url: `${query.baseUrl}/api/downloads/${encodeURIComponent(file.id)}?${tokenQuery}`
    }
  }

  function licenseView(license: License, product: Product, subscription: Subscription | null, live: readonly Activation[], query: LibraryQuery) {
    return {
      id: license.id,
      license_key: license.key,
      product_id: license.productId,
      product_name: product.name,
      kind: license.kind,
      status: license.status,
      state: judgeLicense({ license, subscription, productId: license.productId, now: clock.now() }),
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
      activated_on_this_device: query.instanceId === undefined ? null : live.some((a) => a.instanceId === query.instanceId)
    }
  }

  function subscriptionView(subscription: Subscription, product: Product) {
    const ended = Date.parse(subscription.currentPeriodEnd) <= clock.now().getTime()
    const renews = subscription.status === 'active' && !subscription.cancelAtPeriodEnd && !ended
    return {
      id: subscription.id,
      product_id: subscription.productId,
      product_name: product.name,
      plan: subscription.plan,
      status: ended ? 'expired' : subscription.status,
      current_period_end: subscription.currentPeriodEnd,
      renews_at: renews ? subscription.currentPeriodEnd : null,
      cancel_at_period_end: subscription.cancelAtPeriodEnd,
      canceled_at: subscription.canceledAt
    }
  }

  function build(customer: Customer, query: LibraryQuery) {
    // A fixed handful of queries, then grouping in memory: cost grows with the library, not its query count.
    const held = queries.holdings(customer.id)
    const productOf = (id: string) => held.products.get(id) ?? null
    const inScope = (product: Product | null): product is Product =>
      product !== null &&
      (query.storefront === undefined || product.storefrontSlug === query.storefront) &&
      (query.productId === undefined || product.id === query.productId)
    const subscriptionsById = new Map(held.subscriptions.map((s) => [s.id, s]))
    const tokenQuery = `download_token=${encodeURIComponent(query.downloadToken)}`

    const licenseViews = held.licenses
      .filter((l) => inScope(productOf(l.productId)))
      .map((l) =>
        licenseView(l, productOf(l.productId) as Product, l.subscriptionId ? (subscriptionsById.get(l.subscriptionId) ?? null) : null, held.activations.get(l.id) ?? [], query)
      )
    const licensesByProduct = groupBy(licenseViews, (l) => l.product_id)

    const entitlements = held.entitlements.filter((e) => e.status === 'active' && inScope(productOf(e.productId)))
    const entitlementsByProduct = groupBy(entitlements, (e) => e.productId)
    const productViews = [...entitlementsByProduct].map(([productId, own]) => {
      const product = productOf(productId) as Product
      const productFiles = held.files.get(productId) ?? []
      const ownLicenses = licensesByProduct.get(productId) ?? []
      return {
        product_id: product.id,
        name: product.name,
        version: productFiles[0]?.version ?? null,
        storefront_slug: product.storefrontSlug,
        sources: [...new Set(own.map((e) => e.source))],
        entitlement_ids: own.map((e) => e.id),
        acquired_at: own[0]?.createdAt ?? null,
        downloads: productFiles.map((f) => downloadLink(f, query, tokenQuery)),
        license_ids: ownLicenses.map((l) => l.id),
        activated_on_this_device: query.instanceId === undefined ? null : ownLicenses.some((l) => l.activated_on_this_device === true)
      }
    })

    const subscriptionViews = held.subscriptions
      .filter((s) => inScope(productOf(s.productId)))
      .map((s) => subscriptionView(s, productOf(s.productId) as Product))

    const orderViews = held.orders
      .filter((o) => query.storefront === undefined || o.storefrontSlug === query.storefront)
      .map((order) => {
        const items = (held.items.get(order.id) ?? []).filter((item) => query.productId === undefined || item.productId === query.productId)
        return {
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
            product_name: productOf(item.productId)?.name ?? null,
            kind: item.kind,
            unit_price_cents: item.unitPriceCents,
            claimed_at: item.claimedAt
          }))
        }
      })
      .filter((o) => o.items.length > 0)

    const preferences = customers.preferences(customer.id)
    const ownedProducts = [...entitlementsByProduct.keys()].map((id) => productOf(id) as Product)
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
        help_url: `${query.baseUrl}/support`,
        product_contacts: ownedProducts.map((p) => ({ product_id: p.id, product_name: p.name, email: supportEmail(p) }))
      },
      download_token: query.downloadToken
    }
  }

  return { build }
}

export type LibraryView = ReturnType<typeof createLibraryView>
export type LibraryPayload = ReturnType<LibraryView['build']>
