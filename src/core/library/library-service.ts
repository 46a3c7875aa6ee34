import type { CustomerService, Customer } from '../customers/customers'
import type { Clock } from '../clock/clock'
import { DOWNLOAD_TOKEN_TTL_S } from './library-tokens'
import type { LibraryTokens } from './library-tokens'
import type { LibraryView } from './library-view'
import { toWebviewPayload } from './webview-view'
import type { LicenseRepository } from '../licensing/license-repository'
import type { Product } from '../products/products'
import { DomainError } from '../errors/domain-error'

export interface LibraryRequestContext {
  baseUrl: string
  storefront?: string | undefined
  instanceId?: string | undefined
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
}) {
  const { clock, customers, tokens, view, licenses } = deps

  /** `missingHint` says how this caller's route takes a token (its forms differ by route). */
  async function customerFromToken(token: string | null, missingHint = 'Send a library token.'): Promise<Customer> {
    if (!token) throw new DomainError('LIBRARY_TOKEN_INVALID', missingHint)
    const { customerId } = await tokens.verify(token)
    const customer = customers.find(customerId)
    if (!customer) throw new DomainError('LIBRARY_TOKEN_INVALID', 'The customer of this library token no longer exists.')
    return customer
  }

  /** Plugin context: an authenticated product plus a license key of that product names the customer. */
  function customerFromLicense(product: Product, licenseKey: string | null): Customer {
    if (!licenseKey) throw new DomainError('LIBRARY_TOKEN_INVALID', 'Send a library token, or the product credential headers with a license_key.')
    const license = licenses.byKey(licenseKey.trim())
    if (!license) throw new DomainError('NOT_FOUND', 'No license has this key.')
    if (license.productId !== product.id) throw new DomainError('PRODUCT_SCOPE_MISMATCH', 'The license belongs to another product.')
    return customers.require(license.customerId)
  }

  /** Download tokens live an hour: reused while they have more than REUSE_MARGIN_MS left, not signed per page view. */
  const downloadTokens = new Map<string, { token: string; expiresAtMs: number }>()
  async function downloadTokenFor(customerId: string): Promise<string> {
    const now = clock.now().getTime()
    const cached = downloadTokens.get(customerId)
    if (cached && cached.expiresAtMs - now > REUSE_MARGIN_MS && cached.expiresAtMs - now <= DOWNLOAD_TOKEN_TTL_S * 1000) return cached.token
    const issued = await tokens.issue(customerId, 'download')
    if (downloadTokens.size >= 10_000) downloadTokens.clear()
    downloadTokens.set(customerId, { token: issued.token, expiresAtMs: Date.parse(issued.expiresAt) })
    return issued.token
  }

  async function library(customer: Customer, context: LibraryRequestContext & { productId?: string | undefined }) {
    return view.build(customer, { ...context, downloadToken: await downloadTokenFor(customer.id) })
  }

  return {
    customerFromToken,
    customerFromLicense,
    library,
    async issueToken(customer: Customer, baseUrl: string) {
      const issued = await tokens.issue(customer.id, 'library')
      return {
        library_token: issued.token,
        token_type: 'Bearer' as const,
        expires_at: issued.expiresAt,
        library_url: `${baseUrl}/api/library`,
        webview_url: `${baseUrl}/api/license/v1/webview-library`
      }
    },
    async webview(customer: Customer, context: LibraryRequestContext & { productId: string | null }) {
      const payload = await library(customer, { ...context, productId: context.productId ?? undefined })
      return toWebviewPayload(payload, { productId: context.productId, libraryUrl: `${context.baseUrl}/api/library` })
    }
  }
}

export type LibraryService = ReturnType<typeof createLibraryService>
