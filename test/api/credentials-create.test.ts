import { describe, expect, it } from 'vitest'

import { expectError, issueCredential, ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import { countActiveCredentials } from '../support/database'
import { useEmulator } from '../support/emulator'

// POST /api/developer/plugin-keys/products/:productId: the first active credential, 201; 409 when one exists.
describe('create a product credential', () => {
  const emulator = useEmulator()

  it('answers 201 with the credential and the full material once in one_time_reveal', async () => {
    const { api, product } = await ownedProduct(emulator)
    const created = await api.create(product.id)
    expect(created.status).toBe(201)
    expect(created.body.ok).toBe(true)
    expect(created.body.created).toBe(true)
    const reveal = created.body.one_time_reveal
    expect(Object.keys(reveal).sort()).toEqual(['appId', 'pluginKey', 'pluginSecret', 'secret_shown_once'])
    expect(reveal.appId).toBe(product.appId)
    expect(reveal.secret_shown_once).toBe(true)
    // Recognisable prefixes and at least 128 bits of base62 (22 characters).
    expect(reveal.appId).toMatch(/^app_[A-Za-z0-9]{22,}$/)
    expect(reveal.pluginKey).toMatch(/^pk_[A-Za-z0-9]{22,}$/)
    expect(reveal.pluginSecret).toMatch(/^sk_[A-Za-z0-9]{22,}$/)

    const record = created.body.credential
    expect(record).toMatchObject({
      productId: product.id,
      appId: product.appId,
      status: 'active',
      isActive: true,
      hasRecoverableSecret: true
    })
    expect(record.pluginKeyPreview).toBe(`${reveal.pluginKey.slice(0, 8)}...${reveal.pluginKey.slice(-4)}`)
    expect(record.pluginSecretPreview).toBe(`${reveal.pluginSecret.slice(0, 8)}...${reveal.pluginSecret.slice(-4)}`)
    expect(JSON.stringify(record)).not.toContain(reveal.pluginSecret)

    // The material is real: it verifies.
    const verified = await verifyConnection(emulator, verifyBody(product.id, reveal))
    expect(verified.status).toBe(200)
  })

  it('answers 409 ACTIVE_CREDENTIAL_EXISTS when an active credential exists, and changes nothing', async () => {
    const { api, product } = await ownedProduct(emulator)
    const first = await issueCredential(api, product.id)
    const again = await api.create(product.id)
    expectError(again, 409, 'ACTIVE_CREDENTIAL_EXISTS')
    expect(again.text).not.toContain('pk_')

    const got = await api.get(product.id)
    expect(got.body.credential.id).toBe(first.credential.id)
    expect((await api.list(product.id)).body.count).toBe(1)
    expect(countActiveCredentials(emulator.databasePath, product.id)).toBe(1)
  })

  it('creates a new credential once the previous one is revoked', async () => {
    const { api, product } = await ownedProduct(emulator)
    const first = await issueCredential(api, product.id)
    await api.act(product.id, 'revoke')
    const second = await issueCredential(api, product.id)
    expect(second.credential.id).not.toBe(first.credential.id)
    expect(second.material.pluginKey).not.toBe(first.material.pluginKey)
    expect(second.material.appId).toBe(first.material.appId)
    expect((await api.list(product.id)).body.count).toBe(2)
  })

  it('answers 404 PRODUCT_NOT_FOUND for an unknown product', async () => {
    const { api } = await ownedProduct(emulator)
    expectError(await api.create('prod_doesNotExist'), 404, 'PRODUCT_NOT_FOUND')
  })
})
