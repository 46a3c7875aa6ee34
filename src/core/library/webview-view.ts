import type { LibraryPayload } from './library-view'

/**
 * The in-plugin web view's payload: the library cut down to what a small panel inside a plugin
 * shows, scoped to the calling product when there is one.
 */
export function toWebviewPayload(library: LibraryPayload, scope: { productId: string | null; libraryUrl: string }) {
  const product = scope.productId ? (library.products.find((p) => p.product_id === scope.productId) ?? null) : null
  return {
    scope: scope.productId ? ('product' as const) : ('library' as const),
    product_id: scope.productId,
    owned: scope.productId ? product?.entitled === true : library.products.some((p) => p.entitled),
    products: library.products.map((p) => ({
      product_id: p.product_id,
      name: p.name,
      version: p.version,
      downloads: p.downloads.map((d) => ({
        platform: d.platform,
        version: d.version,
        size_bytes: d.size_bytes,
        url: d.url
      }))
    })),
    licenses: library.licenses.map((l) => ({
      id: l.id,
      license_key: l.license_key,
      product_id: l.product_id,
      state: l.state,
      expires_at: l.expires_at,
      activation_count: l.activation_count,
      max_activations: l.max_activations,
      activated_on_this_device: l.activated_on_this_device
    })),
    subscriptions: library.subscriptions.map((s) => ({
      id: s.id,
      product_id: s.product_id,
      status: s.status,
      renews_at: s.renews_at,
      current_period_end: s.current_period_end
    })),
    // The same groups as the library (orders and preferences too), narrowed like the rest.
    orders: library.orders,
    marketing_preferences: library.marketing_preferences,
    profile: { name: library.profile.name, email: library.profile.email },
    support: { contact_email: library.support.contact_email, help_url: library.support.help_url },
    library_url: scope.libraryUrl,
    download_token: library.download_token
  }
}
