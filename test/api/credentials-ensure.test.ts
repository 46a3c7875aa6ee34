import { describe, expect, it } from 'vitest'

import { expectError, issueCredential, ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// POST .../:productId/ensure: 201 with one_time_reveal when it created, else 200 with previews only.
describe('ensure a product credential', () => {
  const emulator = useEmulator()

  it('creates the credential when none exists: 201, created true, one_time_reveal', async () => {
    const { api, product } = await ownedProduct(emulator)
    const ensured = await api.act(product.id, 'ensure')
    expect(ensured.status).toBe(201)
    expect(ensured.body.ok).toBe(true)
    expect(ensured.body.created).toBe(true)
    expect(ensured.body.credential).toMatchObject({ productId: product.id, status: 'active', isActive: true })
    expect(ensured.body.one_time_reveal).toMatchObject({ appId: product.appId, secret_shown_once: true })
    expect((await verifyConnection(emulator, verifyBody(product.id, ensured.body.one_time_reveal))).status).toBe(200)
  })

  it('returns the existing credential with previews only: 200, created false, no one_time_reveal', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    const ensured = await api.act(product.id, 'ensure')
    expect(ensured.status).toBe(200)
    expect(ensured.body.ok).toBe(true)
    expect(ensured.body.created).toBe(false)
    expect(ensured.body).not.toHaveProperty('one_time_reveal')
    expect(ensured.body.credential.id).toBe(issued.credential.id)
    expect(ensured.body.credential.pluginKeyPreview).toBe(issued.credential.pluginKeyPreview)
    expect(ensured.text).not.toContain(issued.material.pluginKey)
    expect(ensured.text).not.toContain(issued.material.pluginSecret)
    expect((await api.list(product.id)).body.count).toBe(1)
  })

  it('creates a fresh credential after the active one was revoked', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    await api.act(product.id, 'revoke')
    const ensured = await api.act(product.id, 'ensure')
    expect(ensured.status).toBe(201)
    expect(ensured.body.created).toBe(true)
    expect(ensured.body.credential.id).not.toBe(issued.credential.id)
    expect(ensured.body.one_time_reveal.pluginKey).not.toBe(issued.material.pluginKey)
  })

  it('answers 404 PRODUCT_NOT_FOUND for an unknown product', async () => {
    const { api } = await ownedProduct(emulator)
    expectError(await api.act('prod_doesNotExist', 'ensure'), 404, 'PRODUCT_NOT_FOUND')
  })
})
