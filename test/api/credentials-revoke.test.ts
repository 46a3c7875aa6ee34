import { describe, expect, it } from 'vitest'

import { expectError, issueCredential, ownedProduct } from '../support/credentials'
import { countActiveCredentials } from '../support/database'
import { useEmulator } from '../support/emulator'

// POST .../:productId/revoke: 200 revoked true; 200 revoked false when nothing was active.
describe('revoke a product credential', () => {
  const emulator = useEmulator()

  it('revokes the active credential: 200, revoked true, status revoked', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    const revoked = await api.act(product.id, 'revoke', { reason: 'leaked in a forum post' })
    expect(revoked.status).toBe(200)
    expect(revoked.body.ok).toBe(true)
    expect(revoked.body.revoked).toBe(true)
    expect(revoked.body.status).toBe('revoked')
    expect(revoked.body.credential).toMatchObject({
      id: issued.credential.id,
      status: 'revoked',
      isActive: false,
      revocationCause: 'revoke',
      revokedReason: 'leaked in a forum post'
    })
    expect(revoked.body.credential.revokedAt).toEqual(expect.any(String))
    expect(revoked.text).not.toContain(issued.material.pluginSecret)
    expect(countActiveCredentials(emulator.databasePath, product.id)).toBe(0)
    expect((await api.list(product.id)).body.credentials[0].status).toBe('revoked')
  })

  it('answers 200 revoked false when the credential is already revoked', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    await api.act(product.id, 'revoke')
    const again = await api.act(product.id, 'revoke')
    expect(again.status).toBe(200)
    expect(again.body.ok).toBe(true)
    expect(again.body.revoked).toBe(false)
    expect(again.body.credential.id).toBe(issued.credential.id)
    expect(again.body.credential.status).toBe('revoked')
  })

  it('answers 200 revoked false when the product never had a credential', async () => {
    const { api, product } = await ownedProduct(emulator)
    const revoked = await api.act(product.id, 'revoke')
    expect(revoked.status).toBe(200)
    expect(revoked.body.ok).toBe(true)
    expect(revoked.body.revoked).toBe(false)
    expect(revoked.body.credential).toBeNull()
    expectError(await api.get(product.id), 404, 'PRODUCT_CREDENTIAL_NOT_FOUND')
  })

  it('answers 404 PRODUCT_NOT_FOUND for an unknown product', async () => {
    const { api } = await ownedProduct(emulator)
    expectError(await api.act('prod_doesNotExist', 'revoke'), 404, 'PRODUCT_NOT_FOUND')
  })
})
