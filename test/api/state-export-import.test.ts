import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

const emu = useEmulator()

/** A state with every kind of row: credentials (rotated), a purchase with activations, a claimed reseller item, files. */
async function buildRichState() {
  const credential = await productWithCredential(emu, 'Round Trip Synth')
  const rotated = await emu.request(
    'POST',
    `/api/developer/plugin-keys/products/${credential.productId}/rotate-secret`,
    {
      token: credential.developer.token,
      body: { reason: 'exposed' }
    }
  )
  expect(rotated.status).toBe(201)
  await emu.control('POST', `/products/${credential.productId}/files`, {
    version: '1.0.0',
    platform: 'windows',
    sizeBytes: 1234
  })
  const customer = (await emu.control('POST', '/customers', { email: `rt-${Date.now()}@example.test`, name: 'Rita' }))
    .body.customer
  const purchase = await emu.control('POST', '/purchases', {
    customerId: customer.id,
    productId: credential.productId,
    kind: 'subscription'
  })
  const reveal = rotated.body.one_time_reveal
  const plugin = pluginClient(emu, {
    productId: credential.productId,
    appId: reveal.appId,
    pluginKey: reveal.pluginKey,
    pluginSecret: reveal.pluginSecret
  })
  expect((await plugin.activate(purchase.body.license.key, 'rt-machine')).status).toBe(201)
  const reseller = await emu.control('POST', '/reseller-orders', { productId: credential.productId })
  const session = await emu.control('POST', `/customers/${customer.id}/session`, {})
  expect(
    (
      await emu.request('POST', '/api/library/claim', {
        token: session.body.token,
        body: { claim: reseller.body.claimToken }
      })
    ).status
  ).toBe(200)
  return { credential, reveal, customer, licenseKey: purchase.body.license.key as string }
}

describe('state export and import', () => {
  it('round-trips byte for byte and keeps working credentials and licenses', async () => {
    const { reveal, credential, licenseKey } = await buildRichState()
    const first = await emu.control('GET', '/state')
    expect(first.status).toBe(200)
    expect(first.body.state.format).toBe('plugin-license-emulator/scenario')
    expect(first.body.state.activations).toHaveLength(1)

    const imported = await emu.control('PUT', '/state', first.body.state)
    expect(imported.status).toBe(200)
    expect(imported.body.imported.credentials).toBe(2)
    const second = await emu.control('GET', '/state')
    expect(second.text).toBe(first.text)

    // The imported state is live: the rotated credential authenticates, the license validates.
    const plugin = pluginClient(emu, {
      productId: credential.productId,
      appId: reveal.appId,
      pluginKey: reveal.pluginKey,
      pluginSecret: reveal.pluginSecret
    })
    const validated = await plugin.validate(licenseKey, 'rt-machine')
    expect(validated.body.code).toBe('VALID')
  })

  it('never exports a plain key, secret or claim token', async () => {
    const { reveal } = await buildRichState()
    const exported = (await emu.control('GET', '/state')).text
    expect(exported).not.toContain(reveal.pluginKey)
    expect(exported).not.toContain(reveal.pluginSecret)
    expect(exported).not.toContain('clm_')
  })

  it('refuses a corrupt document, names the path of the first error, and changes nothing', async () => {
    await buildRichState()
    const before = (await emu.control('GET', '/state')).text
    const document = JSON.parse(before).state
    document.licenses[0].productId = 'prod_missing'
    const refused = await emu.control('PUT', '/state', document)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ ok: false, error: 'VALIDATION_ERROR', path: '/licenses/0/productId' })

    const wrongType = structuredClone(JSON.parse(before).state)
    wrongType.products[0].name = 42
    const typed = await emu.control('PUT', '/state', wrongType)
    expect(typed.status).toBe(400)
    expect(typed.body.path).toBe('/products/0/name')

    const unknownField = structuredClone(JSON.parse(before).state)
    unknownField.customers[0].shoeSize = 44
    const unknown = await emu.control('PUT', '/state', unknownField)
    expect(unknown.status).toBe(400)
    expect(unknown.body.path).toBe('/customers/0/shoeSize')

    const twoActive = structuredClone(JSON.parse(before).state)
    for (const c of twoActive.credentials) c.status = 'active'
    const duplicateActive = await emu.control('PUT', '/state', twoActive)
    expect(duplicateActive.status).toBe(400)
    expect(duplicateActive.body.path).toMatch(/^\/credentials\/\d+$/)

    expect((await emu.control('PUT', '/state', { format: 'something-else', version: 1 })).status).toBe(400)
    expect((await emu.control('PUT', '/state', undefined, { 'content-type': 'application/json' })).status).toBe(400)
    expect((await emu.control('GET', '/state')).text).toBe(before)
  })

  it('takes author-written plain credentials, storing only hashes and a sealed copy', async () => {
    const document = {
      format: 'plugin-license-emulator/scenario',
      version: 1,
      developers: [{ id: 'dev_a', email: 'a@example.test', createdAt: '2026-01-01T00:00:00.000Z' }],
      products: [
        {
          id: 'prod_a',
          developerId: 'dev_a',
          name: 'Authored',
          appId: 'app_Authored000000000001',
          createdAt: '2026-01-01T00:00:00.000Z'
        }
      ],
      credentials: [
        {
          id: 'cred_a',
          productId: 'prod_a',
          pluginKey: 'pk_AuthoredKey0000000000001',
          pluginSecret: 'sk_AuthoredSecret00000000001',
          status: 'active',
          createdAt: '2026-01-01T00:00:00.000Z'
        }
      ]
    }
    expect((await emu.control('PUT', '/state', document)).status).toBe(200)
    const verified = await emu.request('POST', '/api/plugin-connections/verify', {
      body: {
        productId: 'prod_a',
        appId: 'app_Authored000000000001',
        pluginKey: 'pk_AuthoredKey0000000000001',
        pluginSecret: 'sk_AuthoredSecret00000000001'
      }
    })
    expect(verified.status).toBe(200)
    const exported = (await emu.control('GET', '/state')).text
    expect(exported).not.toContain('sk_AuthoredSecret00000000001')
    expect(exported).toContain('"keyHash"')
  })

  it('ships a JSON Schema that matches the one the import enforces', async () => {
    const shipped = readFileSync(new URL('../../resources/scenario.schema.json', import.meta.url), 'utf8')
    const { scenarioJsonSchema } = await import('../../src/core/scenarios/scenario-schema')
    expect(shipped).toBe(scenarioJsonSchema())
  })
})
