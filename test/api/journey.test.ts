import { createLocalJWKSet, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

const emu = useEmulator()

describe('purchase to activation, end to end', () => {
  it('runs the whole journey a plugin and its customer go through', async () => {
    // A developer creates a credential; the plugin verifies its connection.
    const credential = await productWithCredential(emu, 'Glass Reverb')
    const verified = await emu.request('POST', '/api/plugin-connections/verify', {
      body: {
        productId: credential.productId,
        appId: credential.appId,
        pluginKey: credential.pluginKey,
        pluginSecret: credential.pluginSecret
      }
    })
    expect(verified.status).toBe(200)
    const file = await emu.control('POST', `/products/${credential.productId}/files`, {
      version: '1.2.0',
      platform: 'macos',
      sizeBytes: 200_000
    })
    expect(file.status).toBe(201)

    // A customer buys it.
    const customer = await emu.control('POST', '/customers', { email: 'ana@example.test', name: 'Ana' })
    expect(customer.status).toBe(201)
    const customerId = customer.body.customer.id as string
    const purchase = await emu.control('POST', '/purchases', {
      customerId,
      productId: credential.productId,
      maxActivations: 2
    })
    expect(purchase.status).toBe(201)
    const licenseKey = purchase.body.license.key as string

    // The plugin activates on two machines, hits the limit on a third.
    const plugin = pluginClient(emu, credential)
    const first = await plugin.activate(licenseKey, 'machine-a', {
      instance_name: 'Studio Mac',
      platform: 'macos',
      nonce: 'n-1'
    })
    expect(first.status).toBe(201)
    expect(first.body.activation.instance_id).toBe('machine-a')
    const again = await plugin.activate(licenseKey, 'machine-a')
    expect(again.status).toBe(200)
    expect(again.body.license.activation_count).toBe(1)
    expect((await plugin.activate(licenseKey, 'machine-b')).status).toBe(201)
    const third = await plugin.activate(licenseKey, 'machine-c')
    expect(third.status).toBe(409)
    expect(third.body.error).toBe('TOO_MANY_ACTIVATIONS')

    // The license token verifies offline against the JWKS, for this App ID, with the nonce echoed.
    const jwks = await emu.request('GET', '/.well-known/jwks.json')
    const { payload, protectedHeader } = await jwtVerify(
      first.body.license_token,
      createLocalJWKSet(jwks.body as never),
      {
        audience: credential.appId,
        issuer: 'plugin-license-emulator',
        typ: 'license+jwt'
      }
    )
    expect(protectedHeader.alg).toBe('EdDSA')
    expect(payload.nonce).toBe('n-1')
    expect(payload.sub).toBe(purchase.body.license.id)

    // Deactivate one, then the third machine fits.
    const off = await plugin.deactivate(licenseKey, 'machine-b')
    expect(off.status).toBe(200)
    expect(off.body.deactivated).toBe(true)
    expect((await plugin.activate(licenseKey, 'machine-c')).status).toBe(201)
    const validated = await plugin.validate(licenseKey, 'machine-c')
    expect(validated.body).toMatchObject({ ok: true, valid: true, code: 'VALID' })
    expect((await plugin.validate(licenseKey, 'machine-b')).body.code).toBe('NOT_ACTIVATED')

    // The library shows it all, marking this device.
    const token = await emu.control('POST', `/customers/${customerId}/library-token`)
    const library = await emu.request('GET', `/api/library?instance_id=machine-c`, { token: token.body.libraryToken })
    expect(library.status).toBe(200)
    expect(library.body.products).toHaveLength(1)
    expect(library.body.products[0].name).toBe('Glass Reverb')
    const lib = library.body.licenses[0]
    expect(lib.license_key).toBe(licenseKey)
    expect(lib.activation_count).toBe(2)
    expect(lib.activations.map((a: { instance_id: string }) => a.instance_id).sort()).toEqual([
      'machine-a',
      'machine-c'
    ])
    expect(lib.activated_on_this_device).toBe(true)
    expect(library.body.orders[0].items[0].product_name).toBe('Glass Reverb')
    expect(library.body.profile.email).toBe('ana@example.test')

    // The download works, whole and by range.
    const url = new URL(library.body.products[0].downloads[0].url)
    const whole = await fetch(emu.baseUrl + url.pathname + url.search)
    expect(whole.status).toBe(200)
    expect((await whole.arrayBuffer()).byteLength).toBe(200_000)
    const part = await fetch(emu.baseUrl + url.pathname + url.search, { headers: { range: 'bytes=100-199' } })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 100-199/200000')
    expect((await part.arrayBuffer()).byteLength).toBe(100)

    // A reseller claim adds a product to the same library.
    const other = await productWithCredential(emu, 'Tape Echo')
    const reseller = await emu.control('POST', '/reseller-orders', {
      productId: other.productId,
      reseller: 'Plugin Boutique'
    })
    expect(reseller.status).toBe(201)
    const session = await emu.control('POST', `/customers/${customerId}/session`, {})
    const claim = await emu.request('POST', '/api/library/claim', {
      token: session.body.token,
      body: { claim: reseller.body.claimToken }
    })
    expect(claim.status).toBe(200)
    const after = await emu.request('GET', '/api/library', { token: token.body.libraryToken })
    expect(after.body.products.map((p: { name: string }) => p.name).sort()).toEqual(['Glass Reverb', 'Tape Echo'])
  })
})
