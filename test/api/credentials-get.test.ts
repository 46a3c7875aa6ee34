import { describe, expect, it } from 'vitest'

import { expectError, issueCredential, ownedProduct } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// GET /api/developer/plugin-keys/products/:productId: the active credential, else the most recent revoked one.
describe('get a product credential', () => {
  const emulator = useEmulator()

  it('answers 404 PRODUCT_CREDENTIAL_NOT_FOUND for a product that never had one', async () => {
    const { api, product } = await ownedProduct(emulator)
    expectError(await api.get(product.id), 404, 'PRODUCT_CREDENTIAL_NOT_FOUND')
  })

  it('answers 404 PRODUCT_NOT_FOUND for a product that does not exist', async () => {
    const { api } = await ownedProduct(emulator)
    expectError(await api.get('prod_doesNotExist'), 404, 'PRODUCT_NOT_FOUND')
  })

  it('returns the active credential with the record fields of the contract', async () => {
    const { api, product, developer } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    const got = await api.get(product.id)
    expect(got.status).toBe(200)
    expect(got.body.ok).toBe(true)
    expect(got.body.status).toBe('active')
    expect(got.body.isActive).toBe(true)
    const record = got.body.credential
    expect(record).toMatchObject({
      id: issued.credential.id,
      productId: product.id,
      appId: product.appId,
      apiBaseUrl: emulator.baseUrl,
      status: 'active',
      isActive: true,
      lastUsedAt: null,
      hasRecoverableSecret: true,
      createdBy: developer.id,
      revokedAt: null
    })
    expect(record.appId).not.toBe(product.id)
    expect(record.pluginKeyPreview.startsWith('pk_')).toBe(true)
    expect(record.pluginSecretPreview.startsWith('sk_')).toBe(true)
    expect(Number.isNaN(Date.parse(record.createdAt))).toBe(false)
    expect(got.text).not.toContain(issued.material.pluginKey)
    expect(got.text).not.toContain(issued.material.pluginSecret)
  })

  it('returns the active credential, not an older revoked one, after a rotation', async () => {
    const { api, product } = await ownedProduct(emulator)
    await issueCredential(api, product.id)
    const rotated = await api.act(product.id, 'rotate-key')
    const got = await api.get(product.id)
    expect(got.body.credential.id).toBe(rotated.body.credential.id)
    expect(got.body.status).toBe('active')
  })

  it('returns the most recent revoked credential when none is active', async () => {
    const { api, product } = await ownedProduct(emulator)
    await issueCredential(api, product.id)
    const rotated = await api.act(product.id, 'rotate-secret')
    const revoked = await api.act(product.id, 'revoke')
    expect(revoked.body.revoked).toBe(true)

    const got = await api.get(product.id)
    expect(got.status).toBe(200)
    expect(got.body.credential.id).toBe(rotated.body.credential.id)
    expect(got.body.status).toBe('revoked')
    expect(got.body.isActive).toBe(false)
    expect(got.body.credential.revocationCause).toBe('revoke')
  })
})
