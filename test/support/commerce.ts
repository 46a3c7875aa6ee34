import { randomBytes } from 'node:crypto'

import type { HttpResult, TestEmulator } from './emulator'
import type { PluginCredential } from './plugin-client'

/**
 * Customers, purchases, files, reseller orders and the tokens a customer holds, made through the
 * control plane (docs/api.md section 6) as a QA script would.
 */

const unique = (): string => randomBytes(4).toString('hex')

function expectStatus(result: HttpResult, status: number, what: string): void {
  if (result.status !== status) throw new Error(`${what}: expected ${status}, got ${result.status}: ${result.text}`)
}

export interface TestCustomer {
  id: string
  userId: string
  email: string
  name: string | null
}

export async function createCustomer(
  emu: TestEmulator,
  input: { email?: string; name?: string } = {}
): Promise<TestCustomer> {
  const created = await emu.control('POST', '/customers', {
    email: input.email ?? `cust-${unique()}@example.test`,
    name: input.name ?? 'Test Customer'
  })
  expectStatus(created, 201, 'customer not created')
  return created.body.customer as TestCustomer
}

export type PurchaseKind = 'perpetual' | 'subscription' | 'trial'

export interface Purchase {
  order: Record<string, any>
  item: Record<string, any>
  entitlement: Record<string, any>
  license: {
    id: string
    key: string
    productId: string
    kind: PurchaseKind
    expiresAt: string | null
    maxActivations: number
  }
  subscription: Record<string, any> | null
}

export async function purchase(
  emu: TestEmulator,
  customerId: string,
  productId: string,
  extra: { kind?: PurchaseKind; maxActivations?: number; expiresAt?: string } = {}
): Promise<Purchase> {
  const bought = await emu.control('POST', '/purchases', { customerId, productId, ...extra })
  expectStatus(bought, 201, 'purchase failed')
  return bought.body as unknown as Purchase
}

/** A library token for the customer, as the control plane mints it. */
export async function libraryTokenOf(emu: TestEmulator, customerId: string): Promise<string> {
  const issued = await emu.control('POST', `/customers/${customerId}/library-token`)
  expectStatus(issued, 200, 'library token not minted')
  return issued.body.libraryToken as string
}

/** A signed-in customer user JWT. */
export async function customerSession(emu: TestEmulator, customerId: string, ttlS?: number): Promise<string> {
  const session = await emu.control('POST', `/customers/${customerId}/session`, ttlS === undefined ? {} : { ttlS })
  expectStatus(session, 200, 'customer session not minted')
  return session.body.token as string
}

export interface ProductFile {
  id: string
  productId: string
  version: string
  platform: string
  filename: string
  sizeBytes: number
}

export async function addFile(
  emu: TestEmulator,
  productId: string,
  input: { version?: string; platform?: 'windows' | 'macos' | 'linux'; sizeBytes: number; filename?: string }
): Promise<ProductFile> {
  const added = await emu.control('POST', `/products/${productId}/files`, {
    version: '1.0.0',
    platform: 'macos',
    ...input
  })
  expectStatus(added, 201, 'file not added')
  return added.body.file as ProductFile
}

export async function resellerOrder(
  emu: TestEmulator,
  productId: string,
  reseller = 'Plugin Boutique'
): Promise<{ claimToken: string; item: Record<string, any>; order: Record<string, any> }> {
  const created = await emu.control('POST', '/reseller-orders', { productId, reseller })
  expectStatus(created, 201, 'reseller order not created')
  return { claimToken: created.body.claimToken as string, item: created.body.item, order: created.body.order }
}

/** A product of an existing developer, optionally in a storefront, with its first product credential. */
export async function storefrontProductWithCredential(
  emu: TestEmulator,
  developer: { id: string; token: string },
  input: { name: string; storefrontSlug?: string }
): Promise<PluginCredential> {
  const product = await emu.control('POST', '/products', { developerId: developer.id, ...input })
  expectStatus(product, 201, 'product not created')
  const productId = product.body.product.id as string
  const created = await emu.request('POST', `/api/developer/plugin-keys/products/${productId}`, {
    token: developer.token
  })
  expectStatus(created, 201, 'credential not created')
  const reveal = created.body.one_time_reveal
  return { productId, appId: reveal.appId, pluginKey: reveal.pluginKey, pluginSecret: reveal.pluginSecret }
}

/** GET /api/library with the token as Bearer, plus query parameters. */
export function getLibrary(
  emu: TestEmulator,
  token: string | undefined,
  query: Record<string, string> = {}
): Promise<HttpResult> {
  const search = new URLSearchParams(query).toString()
  return emu.request('GET', `/api/library${search ? `?${search}` : ''}`, token === undefined ? {} : { token })
}

/** The path and query of an absolute URL the emulator handed out (download links, library_url). */
export function localPath(url: string): string {
  const parsed = new URL(url)
  return parsed.pathname + parsed.search
}

/** The emulator's "now" in whole seconds, as token claims count it. */
export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000)

export const HOUR_MS = 60 * 60 * 1000
export const DAY_MS = 24 * HOUR_MS
