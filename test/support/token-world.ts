import type { TokenKind } from '../../src/shared/contract/token-kinds'
import { addFile, createCustomer, customerSession, libraryTokenOf, purchase } from './commerce'
import type { TestEmulator } from './emulator'
import type { PluginCredential } from './plugin-client'
import { productWithCredential } from './plugin-client'

/** One presented credential: a Bearer value, the admin header, or the product credential headers. */
export type Presented = { kind: TokenKind; bearer?: string; headers?: Record<string, string> }

/** Every kind of token, as one party holds it. */
export type TokenSet = Partial<Record<TokenKind, Presented>>

/**
 * Two vendors (developers X and Y, one product each with a credential and a file), a third
 * product of vendor X, and two customers: `buyer` owns X's and Y's products, `stranger` only
 * X's second product. The tokens each party holds, minted the ways docs/api.md lists.
 */
export interface TokenWorld {
  vendorX: {
    developer: { id: string; token: string }
    product: PluginCredential
    fileId: string
    second: PluginCredential
  }
  vendorY: { developer: { id: string; token: string }; product: PluginCredential; fileId: string }
  buyer: { id: string; licenseX: string; licenseY: string }
  stranger: { id: string; licenseSecond: string }
}

export const credentialHeaders = (credential: PluginCredential): Record<string, string> => ({
  'x-svc-app-id': credential.appId,
  'x-svc-plugin-key': credential.pluginKey,
  'x-svc-plugin-secret': credential.pluginSecret
})

export async function buildTokenWorld(emu: TestEmulator): Promise<TokenWorld> {
  const x = await productWithCredential(emu, 'Vendor X Synth')
  const y = await productWithCredential(emu, 'Vendor Y Delay')
  const secondProduct = await emu.createProduct(x.developer.id, 'Vendor X Reverb')
  const created = await emu.request('POST', `/api/developer/plugin-keys/products/${secondProduct.id}`, {
    token: x.developer.token
  })
  const reveal = created.body.one_time_reveal
  const second = {
    productId: secondProduct.id,
    appId: reveal.appId,
    pluginKey: reveal.pluginKey,
    pluginSecret: reveal.pluginSecret
  }
  const fileX = await addFile(emu, x.productId, { sizeBytes: 64 })
  const fileY = await addFile(emu, y.productId, { sizeBytes: 64 })
  await addFile(emu, second.productId, { sizeBytes: 64 })
  const buyer = await createCustomer(emu)
  const licenseX = (await purchase(emu, buyer.id, x.productId)).license.key
  const licenseY = (await purchase(emu, buyer.id, y.productId)).license.key
  const stranger = await createCustomer(emu)
  const licenseSecond = (await purchase(emu, stranger.id, second.productId)).license.key
  return {
    vendorX: { developer: x.developer, product: x, fileId: fileX.id, second },
    vendorY: { developer: y.developer, product: y, fileId: fileY.id },
    buyer: { id: buyer.id, licenseX, licenseY },
    stranger: { id: stranger.id, licenseSecond }
  }
}

/** A fresh developer session token (minted now, so it expires with the others when the clock moves). */
export async function developerSession(emu: TestEmulator, developerId: string): Promise<string> {
  const session = await emu.control('POST', `/developers/${developerId}/session`, {})
  if (session.status !== 200) throw new Error(`developer session not minted: ${session.text}`)
  return session.body.token as string
}

/** A vendor library token: library-token called by `plugin` for the owner of `licenseKey`. */
export async function vendorLibraryToken(
  emu: TestEmulator,
  plugin: PluginCredential,
  licenseKey: string
): Promise<string> {
  const minted = await emu.request('POST', '/api/license/v1/library-token', {
    headers: credentialHeaders(plugin),
    body: { license_key: licenseKey }
  })
  if (minted.status !== 200) throw new Error(`vendor library token not minted: ${minted.text}`)
  return minted.body.library_token as string
}

/** The download token a library read with `token` hands out. */
export async function downloadTokenFrom(emu: TestEmulator, token: string): Promise<string> {
  const read = await emu.request('GET', '/api/library', { token })
  if (read.status !== 200) throw new Error(`library not read: ${read.text}`)
  return read.body.download_token as string
}

/** The tokens the buyer and vendor X hold: one of every kind. */
export async function validTokens(emu: TestEmulator, world: TokenWorld): Promise<TokenSet> {
  const library = await libraryTokenOf(emu, world.buyer.id)
  return {
    developerJwt: { kind: 'developerJwt', bearer: await developerSession(emu, world.vendorX.developer.id) },
    customerJwt: { kind: 'customerJwt', bearer: await customerSession(emu, world.buyer.id) },
    libraryToken: { kind: 'libraryToken', bearer: library },
    vendorLibraryToken: {
      kind: 'vendorLibraryToken',
      bearer: await vendorLibraryToken(emu, world.vendorX.product, world.buyer.licenseX)
    },
    downloadToken: { kind: 'downloadToken', bearer: await downloadTokenFrom(emu, library) },
    adminToken: { kind: 'adminToken', headers: { 'x-emulator-token': emu.adminToken } },
    productCredential: { kind: 'productCredential', headers: credentialHeaders(world.vendorX.product) }
  }
}

/** The same kinds held by vendor Y (where a kind carries a vendor). */
export async function otherVendorTokens(emu: TestEmulator, world: TokenWorld): Promise<TokenSet> {
  const vendorToken = await vendorLibraryToken(emu, world.vendorY.product, world.buyer.licenseY)
  return {
    developerJwt: { kind: 'developerJwt', bearer: await developerSession(emu, world.vendorY.developer.id) },
    vendorLibraryToken: { kind: 'vendorLibraryToken', bearer: vendorToken },
    downloadToken: { kind: 'downloadToken', bearer: await downloadTokenFrom(emu, vendorToken) },
    productCredential: { kind: 'productCredential', headers: credentialHeaders(world.vendorY.product) }
  }
}

/** The same kinds held by the other customer (where a kind carries a customer). */
export async function otherCustomerTokens(emu: TestEmulator, world: TokenWorld): Promise<TokenSet> {
  const library = await libraryTokenOf(emu, world.stranger.id)
  return {
    customerJwt: { kind: 'customerJwt', bearer: await customerSession(emu, world.stranger.id) },
    libraryToken: { kind: 'libraryToken', bearer: library },
    vendorLibraryToken: {
      kind: 'vendorLibraryToken',
      bearer: await vendorLibraryToken(emu, world.vendorX.second, world.stranger.licenseSecond)
    },
    downloadToken: { kind: 'downloadToken', bearer: await downloadTokenFrom(emu, library) }
  }
}

/** Headers that present `token` (none for undefined). */
export function presentedHeaders(token: Presented | undefined): Record<string, string> {
  if (!token) return {}
  return { ...(token.bearer ? { authorization: `Bearer ${token.bearer}` } : {}), ...token.headers }
}
