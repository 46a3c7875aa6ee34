import { decodeJwt } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { customerSession, libraryTokenOf } from '../support/commerce'
import { expectError, managementClient } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { buildTokenWorld, credentialHeaders, downloadTokenFrom, vendorLibraryToken } from '../support/token-world'
import type { TokenWorld } from '../support/token-world'

// docs/api.md section 1 and "Tokens and scopes": absent and ambiguous values, wrong kinds of
// token, vendor scope, the download token's limits, dead ends after revoke, the claim link.

describe('edges', () => {
  const clock = createClock(() => Date.parse('2035-05-06T07:08:09.000Z'))
  let world: TokenWorld
  let libraryToken: string

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    world = await buildTokenWorld(emu)
    libraryToken = await libraryTokenOf(emu, world.buyer.id)
  })

  describe('explicit null is absent', () => {
    it('on the management API, the licensing side and the control plane', async () => {
      const ensured = await managementClient(emu, world.vendorX.developer.token).act(
        world.vendorX.product.productId,
        'ensure',
        {
          reason: null,
          metadata: null
        }
      )
      expect(ensured.status, ensured.text).toBe(200)
      const minted = await emu.request('POST', '/api/license/v1/library-token', {
        headers: credentialHeaders(world.vendorX.product),
        body: { license_key: world.buyer.licenseX, storefront: null, token: null }
      })
      expect(minted.status, minted.text).toBe(200)
      const customer = await emu.control('POST', '/customers', {
        email: 'null-name@example.test',
        name: null,
        country: null
      })
      expect(customer.status, customer.text).toBe(201)
      expect(customer.body.customer.name).toBeNull()
    })

    it('a required field sent as null is still missing', async () => {
      const result = await emu.request('POST', '/api/license/v1/validate', {
        headers: credentialHeaders(world.vendorX.product),
        body: { license_key: null }
      })
      expectError(result, 400, 'VALIDATION_ERROR')
    })
  })

  describe('two names for one value', () => {
    it('storefront and storefrontSlug that disagree are a 400 naming both; the same value twice is fine', async () => {
      const refused = await emu.request('GET', '/api/library?storefront=a&storefrontSlug=b', { token: libraryToken })
      expectError(refused, 400, 'VALIDATION_ERROR')
      expect(refused.body.message).toContain('"storefront"')
      expect(refused.body.message).toContain('"storefrontSlug"')
      const same = await emu.request('GET', '/api/library?storefront=a&storefrontSlug=a', { token: libraryToken })
      expect(same.status, same.text).toBe(200)
    })

    it('instance_id, instanceId and machine_id that disagree are a 400, in the query or across body and query', async () => {
      const refused = await emu.request('GET', '/api/library?instance_id=one&machine_id=two', { token: libraryToken })
      expectError(refused, 400, 'VALIDATION_ERROR')
      expect(refused.body.message).toMatch(/"instance_id" and "machine_id"/)
      const across = await emu.request('POST', '/api/license/v1/webview-library?instanceId=one', {
        token: libraryToken,
        body: { instance_id: 'two' }
      })
      expectError(across, 400, 'VALIDATION_ERROR')
      expect(across.body.message).toMatch(/"instance_id" and "instanceId"/)
    })

    it('x-svc-plugin-key and a different x-svc-api-key are a 400 naming both headers, never their values', async () => {
      const headers = { ...credentialHeaders(world.vendorX.product), 'x-svc-api-key': world.vendorY.product.pluginKey }
      const refused = await emu.request('POST', '/api/license/v1/validate', {
        headers,
        body: { license_key: world.buyer.licenseX }
      })
      expectError(refused, 400, 'VALIDATION_ERROR')
      expect(refused.body.message).toContain('x-svc-plugin-key')
      expect(refused.body.message).toContain('x-svc-api-key')
      expect(refused.text).not.toContain(world.vendorY.product.pluginKey)
      const same = { ...credentialHeaders(world.vendorX.product), 'x-svc-api-key': world.vendorX.product.pluginKey }
      expect(
        (
          await emu.request('POST', '/api/license/v1/validate', {
            headers: same,
            body: { license_key: world.buyer.licenseX }
          })
        ).status
      ).toBe(200)
    })

    it('an empty filter is a 400, not an empty library', async () => {
      for (const query of ['storefront=', 'storefrontSlug=', 'instance_id=', 'machine_id=']) {
        expectError(await emu.request('GET', `/api/library?${query}`, { token: libraryToken }), 400, 'VALIDATION_ERROR')
      }
      expectError(
        await emu.request('GET', '/api/license/v1/webview-library?storefront=', { token: libraryToken }),
        400,
        'VALIDATION_ERROR'
      )
    })
  })

  it('a wrong kind of token is a 401 naming the kind received and the kinds the route takes', async () => {
    const session = await customerSession(emu, world.buyer.id)
    const refused = await emu.request('GET', '/api/library', { token: session })
    expectError(refused, 401, 'LIBRARY_TOKEN_INVALID')
    expect(refused.body.message).toBe(
      'This route takes a library token, a vendor library token or a download token; this request sent a customer session token.'
    )
    expect(refused.body.tokenKind).toEqual({
      received: 'customerJwt',
      accepted: ['libraryToken', 'vendorLibraryToken', 'downloadToken']
    })
    const onManagement = await emu.request('GET', '/api/developer/plugin-keys/products', { token: libraryToken })
    expectError(onManagement, 401, 'INVALID_TOKEN')
    expect(onManagement.body.message).toContain('this request sent a library token')
  })

  describe('vendor scope', () => {
    it('a token minted from a plugin context lists only that vendor’s products, licenses, orders and downloads', async () => {
      const token = await vendorLibraryToken(emu, world.vendorX.product, world.buyer.licenseX)
      expect(decodeJwt(token).vendor).toBe(world.vendorX.developer.id)
      const library = await emu.request('GET', '/api/library', { token })
      expect(library.status, library.text).toBe(200)
      const x = world.vendorX.product.productId
      expect(library.body.products.map((p: { product_id: string }) => p.product_id)).toEqual([x])
      expect(library.body.licenses.map((l: { license_key: string }) => l.license_key)).toEqual([world.buyer.licenseX])
      expect(library.text).not.toContain(world.buyer.licenseY)
      for (const order of library.body.orders) for (const item of order.items) expect(item.product_id).toBe(x)
      expect(library.body.support.product_contacts.map((c: { product_id: string }) => c.product_id)).toEqual([x])
      // Its download token is narrowed the same way: it neither lists nor fetches vendor Y's file.
      const downloadToken = library.body.download_token as string
      expect(decodeJwt(downloadToken).vendor).toBe(world.vendorX.developer.id)
      const viaDownload = await emu.request('GET', '/api/library', { token: downloadToken })
      expect(viaDownload.body.products.map((p: { product_id: string }) => p.product_id)).toEqual([x])
      expectError(
        await emu.request('GET', `/api/downloads/${world.vendorY.fileId}?download_token=${downloadToken}`),
        403,
        'ENTITLEMENT_REQUIRED'
      )
      expect(
        (await emu.request('GET', `/api/downloads/${world.vendorX.fileId}?download_token=${downloadToken}`)).status
      ).toBe(200)
    })

    it('a plugin of vendor Y cannot use vendor X’s token to mint its own', async () => {
      const token = await vendorLibraryToken(emu, world.vendorX.product, world.buyer.licenseX)
      const refused = await emu.request('POST', '/api/license/v1/library-token', {
        token,
        headers: credentialHeaders(world.vendorY.product)
      })
      expectError(refused, 401, 'LIBRARY_TOKEN_INVALID')
      // Re-minting with vendor X's own token keeps the vendor: never wider.
      const again = await emu.request('POST', '/api/license/v1/library-token', { token })
      expect(decodeJwt(again.body.library_token as string).vendor).toBe(world.vendorX.developer.id)
    })
  })

  describe('the download token', () => {
    it('never mints a library token, and a library read with it hands back the same token', async () => {
      const downloadToken = await downloadTokenFrom(emu, libraryToken)
      for (const method of ['GET', 'POST'] as const) {
        const refused = await emu.request(method, '/api/license/v1/library-token', { token: downloadToken })
        expectError(refused, 401, 'LIBRARY_TOKEN_INVALID')
        expect(refused.body.message).toContain('this request sent a download token')
        expectError(
          await emu.request(method, '/api/license/v1/webview-library', { token: downloadToken }),
          401,
          'LIBRARY_TOKEN_INVALID'
        )
      }
      const read = await emu.request('GET', `/api/library?download_token=${downloadToken}`)
      expect(read.status, read.text).toBe(200)
      expect(read.body.download_token).toBe(downloadToken)
    })

    it('lives its own hour only: the library token outlives it', async () => {
      const downloadToken = await downloadTokenFrom(emu, libraryToken)
      await emu.control('PUT', '/clock', { offsetS: 61 * 60 })
      try {
        const expired = await emu.request(
          'GET',
          `/api/downloads/${world.vendorX.fileId}?download_token=${downloadToken}`
        )
        expectError(expired, 401, 'LIBRARY_TOKEN_INVALID')
        expect(expired.body.message).toBe('The download token has expired.')
        expectError(await emu.request('GET', '/api/library', { token: downloadToken }), 401, 'LIBRARY_TOKEN_INVALID')
        expect((await emu.request('GET', '/api/library', { token: libraryToken })).status).toBe(200)
      } finally {
        await emu.control('PUT', '/clock', { offsetS: 0 })
      }
    })
  })

  it('rotate-key and rotate-secret after revoke say to create or ensure a new credential', async () => {
    const product = await emu.createProduct(world.vendorX.developer.id, 'Revoked Rack')
    const api = managementClient(emu, world.vendorX.developer.token)
    expect((await api.create(product.id)).status).toBe(201)
    expect((await api.act(product.id, 'revoke')).status).toBe(200)
    for (const action of ['rotate-key', 'rotate-secret'] as const) {
      const refused = await api.act(product.id, action)
      expectError(refused, 404, 'PRODUCT_CREDENTIAL_NOT_FOUND')
      expect(refused.body.message).toMatch(/create a new one with POST .*ensure one with POST .*\/ensure/)
      expect(refused.body.recovery).toEqual({
        create: `/api/developer/plugin-keys/products/${product.id}`,
        ensure: `/api/developer/plugin-keys/products/${product.id}/ensure`
      })
    }
    expect((await api.act(product.id, 'ensure')).status).toBe(201)
  })

  it('a URL over 8 KiB is 414 URI_TOO_LONG, as docs/api.md says; one under it is served', async () => {
    const long = await fetch(`${emu.baseUrl}/api/library?utm_source=${'x'.repeat(9 * 1024)}`, {
      headers: { authorization: `Bearer ${libraryToken}` }
    })
    expect(long.status).toBe(414)
    expect(((await long.json()) as { error: string }).error).toBe('URI_TOO_LONG')
    const served = await fetch(`${emu.baseUrl}/api/library?utm_source=${'x'.repeat(7 * 1024)}`, {
      headers: { authorization: `Bearer ${libraryToken}` }
    })
    expect(served.status).toBe(200)
  })

  it('the claim link opened in a browser is a page saying what it is and how the claim completes', async () => {
    const order = await emu.control('POST', '/reseller-orders', { productId: world.vendorX.product.productId })
    const url = new URL(order.body.claimUrl as string)
    const page = await fetch(emu.baseUrl + url.pathname + url.search, { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await page.text()
    expect(html).toContain('claim link')
    expect(html).toContain('POST /api/library/claim')
    expect(html).not.toContain(order.body.claimToken as string)
    // Opening it claimed nothing: the item is still claimable.
    const claimed = await emu.request('POST', '/api/library/claim', {
      token: await customerSession(emu, world.buyer.id),
      body: { claim: order.body.claimToken }
    })
    expect(claimed.status, claimed.text).toBe(200)
    expect(claimed.body.already_claimed).toBe(false)
  })
})
