import { describe, expect, it } from 'vitest'

import { expectError, issueCredential, ownedProduct } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// POST .../:productId/reveal-secret: 200 with appId, pluginKey, pluginSecret and the productKey / ProductSecret aliases.
describe('reveal the secret of a product credential', () => {
  const emulator = useEmulator()

  it('returns the full material with the compatibility aliases, and counts the reveal', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    const revealed = await api.act(product.id, 'reveal-secret', { reason: 'building the installer' })
    expect(revealed.status).toBe(200)
    expect(revealed.body.ok).toBe(true)
    expect(revealed.body.one_time_reveal).toEqual({
      appId: product.appId,
      pluginKey: issued.material.pluginKey,
      pluginSecret: issued.material.pluginSecret,
      productKey: issued.material.pluginKey,
      ProductSecret: issued.material.pluginSecret,
      secret_shown_once: expect.any(Boolean)
    })
    expect(revealed.body.credential).toMatchObject({ id: issued.credential.id, status: 'active', revealCount: 1 })
    expect(revealed.body.credential.lastRevealedAt).toEqual(expect.any(String))

    const again = await api.act(product.id, 'reveal-secret')
    expect(again.status).toBe(200)
    expect(again.body.credential.revealCount).toBe(2)
    // Revealing changes nothing else: the same credential stays active.
    expect((await api.get(product.id)).body.credential.id).toBe(issued.credential.id)
  })

  it('reveals the replacement after a rotation, not the revoked material', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    const rotated = await api.act(product.id, 'rotate-secret')
    const revealed = await api.act(product.id, 'reveal-secret')
    expect(revealed.status).toBe(200)
    expect(revealed.body.one_time_reveal.pluginSecret).toBe(rotated.body.one_time_reveal.pluginSecret)
    expect(revealed.body.one_time_reveal.pluginSecret).not.toBe(issued.material.pluginSecret)
  })

  it('answers 404 PRODUCT_CREDENTIAL_NOT_FOUND when the product has no credential', async () => {
    const { api, product } = await ownedProduct(emulator)
    expectError(await api.act(product.id, 'reveal-secret'), 404, 'PRODUCT_CREDENTIAL_NOT_FOUND')
  })

  it('answers 404 PRODUCT_CREDENTIAL_NOT_FOUND once the credential is revoked', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    await api.act(product.id, 'revoke')
    const revealed = await api.act(product.id, 'reveal-secret')
    expectError(revealed, 404, 'PRODUCT_CREDENTIAL_NOT_FOUND')
    expect(revealed.text).not.toContain(issued.material.pluginSecret)
  })
})
