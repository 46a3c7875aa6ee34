import { beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { createCustomer, getLibrary, libraryTokenOf, localPath, purchase } from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

// GET and POST /api/license/v1/library-token (docs/api.md section 4):
// a library token from a library token, or from the product credential headers plus a license key.
describe('/api/license/v1/library-token', () => {
  const base = Date.parse('2033-01-02T03:04:05.000Z')
  const clock = createClock(() => base)
  let product: Awaited<ReturnType<typeof productWithCredential>>
  let otherProduct: Awaited<ReturnType<typeof productWithCredential>>
  let customerId: string
  let licenseKey: string
  let otherLicenseKey: string
  let libraryToken: string

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    product = await productWithCredential(emu, 'Token Tremolo')
    otherProduct = await productWithCredential(emu, 'Other Octaver')
    const customer = await createCustomer(emu)
    customerId = customer.id
    licenseKey = (await purchase(emu, customerId, product.productId)).license.key
    const stranger = await createCustomer(emu)
    otherLicenseKey = (await purchase(emu, stranger.id, otherProduct.productId)).license.key
    libraryToken = await libraryTokenOf(emu, customerId)
  })

  const path = '/api/license/v1/library-token'

  /** The contract's shape, and the token really opens this customer's library. */
  async function expectIssuedFor(result: HttpResult, expectedCustomerId: string): Promise<void> {
    expect(result.status, result.text).toBe(200)
    expect(Object.keys(result.body).sort()).toEqual([
      'expires_at',
      'library_token',
      'library_url',
      'ok',
      'token_type',
      'webview_url'
    ])
    expect(result.body).toMatchObject({
      ok: true,
      token_type: 'Bearer',
      library_url: `${emu.baseUrl}/api/library`,
      webview_url: `${emu.baseUrl}/api/license/v1/webview-library`
    })
    expect(result.body.expires_at).toBe(new Date(base + 24 * 60 * 60 * 1000).toISOString())
    const library = await emu.request('GET', localPath(result.body.library_url), { token: result.body.library_token })
    expect(library.status, library.text).toBe(200)
    expect(library.body.profile.customer_id).toBe(expectedCustomerId)
    const webview = await emu.request('GET', localPath(result.body.webview_url), { token: result.body.library_token })
    expect(webview.status, webview.text).toBe(200)
    expect(webview.body.ok).toBe(true)
  }

  describe('with a library token', () => {
    it('GET with the token as Bearer', async () => {
      await expectIssuedFor(await emu.request('GET', path, { token: libraryToken }), customerId)
    })

    it.each(['token', 'libraryToken', 'library_token'])('GET with the token as ?%s=', async (param) => {
      await expectIssuedFor(
        await emu.request('GET', `${path}?${param}=${encodeURIComponent(libraryToken)}`),
        customerId
      )
    })

    it('POST with the token in the body, and as Bearer', async () => {
      await expectIssuedFor(await emu.request('POST', path, { body: { library_token: libraryToken } }), customerId)
      await expectIssuedFor(await emu.request('POST', path, { token: libraryToken }), customerId)
    })

    it('a bad or missing library token is 401 LIBRARY_TOKEN_INVALID', async () => {
      expectError(await emu.request('GET', path), 401, 'LIBRARY_TOKEN_INVALID')
      expectError(await emu.request('POST', path, { body: {} }), 401, 'LIBRARY_TOKEN_INVALID')
      expectError(await emu.request('GET', path, { token: 'garbage' }), 401, 'LIBRARY_TOKEN_INVALID')
      expectError(await emu.request('POST', path, { body: { library_token: 'garbage' } }), 401, 'LIBRARY_TOKEN_INVALID')
    })

    it('a developer JWT is not a library token', async () => {
      expectError(await emu.request('GET', path, { token: product.developer.token }), 401, 'LIBRARY_TOKEN_INVALID')
    })
  })

  describe('with the product credential headers and a license key', () => {
    it('POST with license_key in the body', async () => {
      const plugin = pluginClient(emu, product)
      await expectIssuedFor(await plugin.call('library-token', { license_key: licenseKey }), customerId)
    })

    it('GET with license_key in the query', async () => {
      const plugin = pluginClient(emu, product)
      const result = await emu.request('GET', `${path}?license_key=${encodeURIComponent(licenseKey)}`, {
        headers: plugin.headers
      })
      await expectIssuedFor(result, customerId)
    })

    it('a bad credential is 401 PRODUCT_CREDENTIAL_INVALID, for GET and POST', async () => {
      const bad = pluginClient(emu, { ...product, pluginSecret: 'sk_notthesecretnotthesecret00' })
      expectError(await bad.call('library-token', { license_key: licenseKey }), 401, 'PRODUCT_CREDENTIAL_INVALID')
      expectError(
        await emu.request('GET', `${path}?license_key=${encodeURIComponent(licenseKey)}`, { headers: bad.headers }),
        401,
        'PRODUCT_CREDENTIAL_INVALID'
      )
      // A credential of another product with this product's App ID.
      const mixed = pluginClient(emu, { ...otherProduct, appId: product.appId })
      expectError(await mixed.call('library-token', { license_key: licenseKey }), 401, 'PRODUCT_CREDENTIAL_INVALID')
    })

    it('a credential with a header missing is 401 PRODUCT_CREDENTIAL_INVALID, not a fall back to "no token"', async () => {
      const { [`x-svc-plugin-secret`]: _secret, ...partial } = pluginClient(emu, product).headers
      expectError(
        await emu.request('POST', path, { headers: partial, body: { license_key: licenseKey } }),
        401,
        'PRODUCT_CREDENTIAL_INVALID'
      )
    })

    it('a license of another product is PRODUCT_SCOPE_MISMATCH', async () => {
      const plugin = pluginClient(emu, product)
      expectError(await plugin.call('library-token', { license_key: otherLicenseKey }), 403, 'PRODUCT_SCOPE_MISMATCH')
      expectError(
        await emu.request('GET', `${path}?license_key=${encodeURIComponent(otherLicenseKey)}`, {
          headers: plugin.headers
        }),
        403,
        'PRODUCT_SCOPE_MISMATCH'
      )
    })

    it('an unknown license key is 404 NOT_FOUND', async () => {
      const plugin = pluginClient(emu, product)
      expectError(
        await plugin.call('library-token', { license_key: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE' }),
        404,
        'NOT_FOUND'
      )
    })

    it('no license key with the credential is 401 LIBRARY_TOKEN_INVALID', async () => {
      const plugin = pluginClient(emu, product)
      expectError(await plugin.call('library-token', {}), 401, 'LIBRARY_TOKEN_INVALID')
    })
  })

  it('the issued token expires on the emulator clock', async () => {
    const issued = await emu.request('GET', path, { token: libraryToken })
    const fresh = issued.body.library_token as string
    expect((await getLibrary(emu, fresh)).status).toBe(200)
    clock.setOffsetMs(Date.parse(issued.body.expires_at) - base + 1000)
    try {
      expectError(await getLibrary(emu, fresh), 401, 'LIBRARY_TOKEN_INVALID')
    } finally {
      clock.setOffsetMs(0)
    }
  })
})
