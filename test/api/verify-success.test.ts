import { describe, expect, it } from 'vitest'

import { issueCredential, ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// POST /api/plugin-connections/verify, success: 200 { ok, verified, connection:{ productId, appId, status, verifiedAt } }.
describe('plugin connection verification: success', () => {
  const emulator = useEmulator()

  it('confirms that product ID, App ID, plugin key and plugin secret belong together', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    const verified = await verifyConnection(emulator, verifyBody(product.id, issued.material))
    expect(verified.status).toBe(200)
    expect(verified.body).toEqual({
      ok: true,
      verified: true,
      connection: { productId: product.id, appId: product.appId, status: 'verified', verifiedAt: expect.any(String) }
    })
    expect(Number.isNaN(Date.parse(verified.body.connection.verifiedAt))).toBe(false)
    // The response never echoes the key or the secret.
    expect(verified.text).not.toContain(issued.material.pluginKey)
    expect(verified.text).not.toContain(issued.material.pluginSecret)
  })

  it('needs no Authorization header, and a developer token does not change the outcome', async () => {
    const { api, product, developer } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    const withToken = await emulator.request('POST', '/api/plugin-connections/verify', {
      token: developer.token,
      body: verifyBody(product.id, issued.material)
    })
    expect(withToken.status).toBe(200)
    expect(withToken.body.verified).toBe(true)
  })

  it('verifies the credential an ensure or a reveal handed out', async () => {
    const { api, product } = await ownedProduct(emulator)
    const ensured = await api.act(product.id, 'ensure')
    const revealed = await api.act(product.id, 'reveal-secret')
    expect((await verifyConnection(emulator, verifyBody(product.id, ensured.body.one_time_reveal))).status).toBe(200)
    expect((await verifyConnection(emulator, verifyBody(product.id, revealed.body.one_time_reveal))).status).toBe(200)
  })
})
