import { beforeAll, describe, expect, it } from 'vitest'

import {
  addFile,
  createCustomer,
  getLibrary,
  libraryTokenOf,
  localPath,
  purchase,
  storefrontProductWithCredential
} from '../support/commerce'
import type { Purchase } from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

// GET and POST /api/license/v1/webview-library: the customer library for an in-plugin web view,
// scoped to the calling product when the product credential identifies it.
describe('/api/license/v1/webview-library', () => {
  let alpha: Awaited<ReturnType<typeof productWithCredential>>
  let beta: Awaited<ReturnType<typeof productWithCredential>>
  let alphaPurchase: Purchase
  let betaPurchase: Purchase
  let libraryToken: string
  const path = '/api/license/v1/webview-library'

  const emu = useEmulator()
  beforeAll(async () => {
    alpha = await productWithCredential(emu, 'Alpha Amp')
    beta = await productWithCredential(emu, 'Beta Bitcrusher')
    await addFile(emu, alpha.productId, { version: '3.1.0', sizeBytes: 4096 })
    const customer = await createCustomer(emu, { name: 'Dana' })
    alphaPurchase = await purchase(emu, customer.id, alpha.productId)
    betaPurchase = await purchase(emu, customer.id, beta.productId, { kind: 'subscription' })
    expect((await pluginClient(emu, alpha).activate(alphaPurchase.license.key, 'rig-1')).status).toBe(201)
    libraryToken = await libraryTokenOf(emu, customer.id)
  })

  function expectScopedToAlpha(result: HttpResult): void {
    expect(result.status, result.text).toBe(200)
    expect(result.body).toMatchObject({ ok: true, scope: 'product', product_id: alpha.productId, owned: true })
    expect(result.body.licenses.map((l: { id: string }) => l.id)).toEqual([alphaPurchase.license.id])
    expect(result.body.products.map((p: { product_id: string }) => p.product_id)).toEqual([alpha.productId])
    expect(result.body.subscriptions).toEqual([])
    expect(result.text).not.toContain(betaPurchase.license.key)
    expect(result.body.profile).toEqual({ name: 'Dana', email: expect.stringContaining('@') })
  }

  it('POST with the credential headers and license_key in the body: only the calling product', async () => {
    expectScopedToAlpha(
      await pluginClient(emu, alpha).call('webview-library', { license_key: alphaPurchase.license.key })
    )
  })

  it('GET with the credential headers and license_key in the query: only the calling product', async () => {
    const headers = pluginClient(emu, alpha).headers
    expectScopedToAlpha(
      await emu.request('GET', `${path}?license_key=${encodeURIComponent(alphaPurchase.license.key)}`, { headers })
    )
  })

  it('the other product, calling with its own credential, sees only its own license and subscription', async () => {
    const result = await pluginClient(emu, beta).call('webview-library', { license_key: betaPurchase.license.key })
    expect(result.status, result.text).toBe(200)
    expect(result.body.licenses.map((l: { id: string }) => l.id)).toEqual([betaPurchase.license.id])
    expect(result.body.subscriptions.map((s: { product_id: string }) => s.product_id)).toEqual([beta.productId])
    expect(result.body.subscriptions[0].renews_at).toBe(betaPurchase.subscription?.currentPeriodEnd)
    expect(result.text).not.toContain(alphaPurchase.license.key)
  })

  it('a library token together with the credential headers is scoped to the calling product too', async () => {
    const headers = pluginClient(emu, alpha).headers
    expectScopedToAlpha(await emu.request('POST', path, { headers, body: { library_token: libraryToken } }))
  })

  it('a library token alone gives the whole library (scope "library"), GET and POST', async () => {
    for (const result of [
      await emu.request('GET', path, { token: libraryToken }),
      await emu.request('POST', path, { body: { library_token: libraryToken } })
    ]) {
      expect(result.status, result.text).toBe(200)
      expect(result.body).toMatchObject({ ok: true, scope: 'library', product_id: null, owned: true })
      expect(result.body.licenses.map((l: { id: string }) => l.id).sort()).toEqual(
        [alphaPurchase.license.id, betaPurchase.license.id].sort()
      )
    }
  })

  it('carries working download links and the device mark', async () => {
    const result = await pluginClient(emu, alpha).call('webview-library', {
      license_key: alphaPurchase.license.key,
      instance_id: 'rig-1'
    })
    expect(result.body.licenses[0].activated_on_this_device).toBe(true)
    expect(result.body.licenses[0].activation_count).toBe(1)
    const [download] = result.body.products[0].downloads
    expect(download).toMatchObject({ platform: 'macos', version: '3.1.0', size_bytes: 4096 })
    const fetched = await emu.request('GET', localPath(download.url))
    expect(fetched.status).toBe(200)
    expect(fetched.headers.get('content-length')).toBe('4096')
    expect(result.body.library_url).toBe(`${emu.baseUrl}/api/library`)

    const elsewhere = await pluginClient(emu, alpha).call('webview-library', {
      license_key: alphaPurchase.license.key,
      instance_id: 'rig-2'
    })
    expect(elsewhere.body.licenses[0].activated_on_this_device).toBe(false)
  })

  it('a bad credential is 401 PRODUCT_CREDENTIAL_INVALID, GET and POST', async () => {
    const bad = pluginClient(emu, { ...alpha, pluginKey: 'pk_unknownunknownunknown000' })
    expectError(
      await bad.call('webview-library', { license_key: alphaPurchase.license.key }),
      401,
      'PRODUCT_CREDENTIAL_INVALID'
    )
    expectError(
      await emu.request('GET', `${path}?license_key=${encodeURIComponent(alphaPurchase.license.key)}`, {
        headers: bad.headers
      }),
      401,
      'PRODUCT_CREDENTIAL_INVALID'
    )
  })

  it("another product's license is PRODUCT_SCOPE_MISMATCH, GET and POST", async () => {
    const plugin = pluginClient(emu, alpha)
    expectError(
      await plugin.call('webview-library', { license_key: betaPurchase.license.key }),
      403,
      'PRODUCT_SCOPE_MISMATCH'
    )
    expectError(
      await emu.request('GET', `${path}?license_key=${encodeURIComponent(betaPurchase.license.key)}`, {
        headers: plugin.headers
      }),
      403,
      'PRODUCT_SCOPE_MISMATCH'
    )
  })

  it('neither a library token nor a credential is 401 LIBRARY_TOKEN_INVALID', async () => {
    expectError(await emu.request('GET', path), 401, 'LIBRARY_TOKEN_INVALID')
    expectError(await emu.request('POST', path, { body: {} }), 401, 'LIBRARY_TOKEN_INVALID')
    expectError(await emu.request('GET', path, { token: alpha.developer.token }), 401, 'LIBRARY_TOKEN_INVALID')
  })
})

// The web view gets the same library (docs/api.md section 8): the same groups as GET /api/library
// (orders and marketing_preferences included) and the same filters, narrowed to the calling product.
describe('/api/license/v1/webview-library: the same groups and filters as /api/library', () => {
  let north: Awaited<ReturnType<typeof storefrontProductWithCredential>>
  let south: Awaited<ReturnType<typeof storefrontProductWithCredential>>
  let northPurchase: Purchase
  let token: string
  const path = '/api/license/v1/webview-library'

  const emu = useEmulator()
  beforeAll(async () => {
    const developer = await emu.createDeveloper()
    north = await storefrontProductWithCredential(emu, developer, { name: 'North Reverb', storefrontSlug: 'north' })
    south = await storefrontProductWithCredential(emu, developer, { name: 'South Delay', storefrontSlug: 'south' })
    const customer = await createCustomer(emu, { name: 'Eli' })
    northPurchase = await purchase(emu, customer.id, north.productId)
    await purchase(emu, customer.id, south.productId)
    expect((await pluginClient(emu, north).activate(northPurchase.license.key, 'studio-mac')).status).toBe(201)
    token = await libraryTokenOf(emu, customer.id)
  })

  it('carries orders and marketing_preferences, as the library does', async () => {
    const library = await getLibrary(emu, token)
    const webview = await emu.request('GET', path, { token })
    expect(webview.status, webview.text).toBe(200)
    expect(webview.body.orders).toHaveLength(2)
    expect(webview.body.orders).toEqual(library.body.orders)
    expect(webview.body.marketing_preferences).toEqual(library.body.marketing_preferences)
  })

  it.each(['storefront', 'storefrontSlug'])(
    '?%s= filters every group to one storefront, GET and POST',
    async (name) => {
      for (const result of [
        await emu.request('GET', `${path}?${name}=north`, { token }),
        await emu.request('POST', path, { token, body: { [name]: 'north' } })
      ]) {
        expect(result.status, result.text).toBe(200)
        expect(result.body.products.map((p: { name: string }) => p.name)).toEqual(['North Reverb'])
        expect(result.body.licenses.map((l: { product_id: string }) => l.product_id)).toEqual([north.productId])
        expect(result.body.orders.map((o: { storefront_slug: string }) => o.storefront_slug)).toEqual(['north'])
      }
    }
  )

  it.each(['instance_id', 'instanceId', 'machine_id'])('?%s= marks what is activated on that device', async (name) => {
    const here = await emu.request('GET', `${path}?${name}=studio-mac`, { token })
    expect(here.status, here.text).toBe(200)
    const mark = (result: HttpResult, productId: string) =>
      result.body.licenses.find((l: { product_id: string }) => l.product_id === productId).activated_on_this_device
    expect(mark(here, north.productId)).toBe(true)
    expect(mark(here, south.productId)).toBe(false)
    const elsewhere = await emu.request('POST', path, { token, body: { [name]: 'laptop' } })
    expect(mark(elsewhere, north.productId)).toBe(false)
  })

  it('with the credential headers and license_key, orders are narrowed to the calling product', async () => {
    const result = await pluginClient(emu, north).call('webview-library', { license_key: northPurchase.license.key })
    expect(result.status, result.text).toBe(200)
    expect(result.body.scope).toBe('product')
    const items = result.body.orders.flatMap((o: { items: { product_id: string }[] }) =>
      o.items.map((i) => i.product_id)
    )
    expect(items).toEqual([north.productId])
    expect(result.body.marketing_preferences).toMatchObject({ newsletter: expect.any(Boolean) })
  })

  it('an invalid value of a known filter stays 400', async () => {
    expectError(await emu.request('GET', `${path}?storefront=${'x'.repeat(300)}`, { token }), 400, 'VALIDATION_ERROR')
  })
})
