import type { Clock } from '../clock/clock'
import type { Customer, CustomerService } from '../customers/customers'
import { DomainError } from '../errors/domain-error'
import type { LicenseRepository } from '../licensing/license-repository'
import type { Product, ProductService } from '../products/products'
import type { LibraryLinks } from './library-links'
import { DOWNLOAD_TOKEN_TTL_S } from './library-tokens'
import type { LibraryGrant, LibraryTokens } from './library-tokens'
import type { LibraryView } from './library-view'
import { toWebviewPayload } from './webview-view'

/** How far a request's token reaches: one vendor's products, and the download token it already is. */
export interface LibraryScope {
  vendorId: string | null
  /** Set when the request came with a download token: the page reuses it, never a newer one. */
  downloadToken: string | null
}

export interface LibraryRequestContext {
  links: LibraryLinks
  storefront?: string | undefined
  instanceId?: string | undefined
  scope?: LibraryScope | undefined
}

/** The customer library surface: resolve who is asking (token or plugin context), then read. */
/** A reused download token keeps at least this long to live, so a page's links outlast the visit. */
const REUSE_MARGIN_MS = 30 * 60 * 1000

export function createLibraryService(deps: {
  clock: Clock
  customers: CustomerService
  tokens: LibraryTokens
  view: LibraryView
  licenses: LicenseRepository
  products: Pick<ProductService, 'require'>
}) {
  const { clock, customers, tokens, view, licenses, products } = deps

  /** Who a library or download token speaks for: its customer and its grant (scope, vendor, expiry). */
  async function grantOf(token: string): Promise<{ customer: Customer; grant: LibraryGrant }> {
    const grant = await tokens.verify(token)
    const customer = customers.find(grant.customerId)
    if (!customer)
      throw new DomainError('LIBRARY_TOKEN_INVALID', 'The customer of this library token no longer exists.')
    return { customer, grant }
  }

  /** Plugin context: an authenticated product plus a license key of that product names the customer. */
  function customerFromLicense(product: Product, licenseKey: string | null): Customer {
    if (!licenseKey)
      throw new DomainError(
        'LIBRARY_TOKEN_INVALID',
        'Send a library token, or the product credential headers with a license_key.'
      )
    const license = licenses.byKey(licenseKey.trim())
    if (!license) throw new DomainError('NOT_FOUND', 'No license has this key.')
    if (license.productId !== product.id)
      throw new DomainError('PRODUCT_SCOPE_MISMATCH', 'The license belongs to another product.')
    return customers.require(license.customerId)
  }

  /** Download tokens live an hour: reused while they have more than REUSE_MARGIN_MS left, not signed per page view. */
  // Keyed by customer and vendor: a vendor's page hands out a download token narrowed like itself.
  const downloadTokens = new Map<string, { token: string; expiresAtMs: number }>()
  async function downloadTokenFor(customerId: string, vendorId: string | null): Promise<string> {
    const now = clock.now().getTime()
    const key = `${customerId} ${vendorId ?? ''}`
    const cached = downloadTokens.get(key)
    if (cached && cached.expiresAtMs - now > REUSE_MARGIN_MS && cached.expiresAtMs - now <= DOWNLOAD_TOKEN_TTL_S * 1000)
      return cached.token
    const issued = await tokens.issue(customerId, 'download', vendorId)
    if (downloadTokens.size >= 10_000) downloadTokens.clear()
    downloadTokens.set(key, { token: issued.token, expiresAtMs: Date.parse(issued.expiresAt) })
    return issued.token
  }

  /**
   * A library page. Read with a download token, the page hands back that same token: a download
   * token never buys a longer-lived one (docs/api.md, "Tokens and scopes").
   */
  async function library(customer: Customer, context: LibraryRequestContext & { productId?: string | undefined }) {
    const vendorId = context.scope?.vendorId ?? null
    const downloadToken = context.scope?.downloadToken ?? (await downloadTokenFor(customer.id, vendorId))
    return view.build(customer, { ...context, vendorId: vendorId ?? undefined, downloadToken })
  }

  return {
    grantOf,
    customerFromLicense,
    library,
    /** `vendorId` set: a vendor library token, narrowed to that developer's products. */
    async issueToken(customer: Customer, links: LibraryLinks, vendorId: string | null = null) {
      const issued = await tokens.issue(customer.id, 'library', vendorId)
      return {
        library_token: issued.token,
        token_type: 'Bearer' as const,
        expires_at: issued.expiresAt,
        library_url: links.library,
        webview_url: links.webview
      }
    },
    async webview(customer: Customer, context: LibraryRequestContext & { productId: string | null }) {
      // The answer names its product: an unknown id is refused rather than repeated (it may be a pasted secret).
      if (context.productId !== null) products.require(context.productId)
      const payload = await library(customer, { ...context, productId: context.productId ?? undefined })
      return toWebviewPayload(payload, { productId: context.productId, libraryUrl: context.links.library })
    }
  }
}

export type LibraryService = ReturnType<typeof createLibraryService>
