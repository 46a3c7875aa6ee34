import { beforeAll, describe, expect, it } from 'vitest'

import { expectError, issueCredential, ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import type { Material } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// --strict hides the failure `reason`, as a production service would (docs/api.md section 3).
describe('plugin connection verification in strict mode', () => {
  let productId: string
  let material: Material
  const emulator = useEmulator({ strict: true })
  beforeAll(async () => {
    const owned = await ownedProduct(emulator)
    productId = owned.product.id
    material = (await issueCredential(owned.api, productId)).material
  })

  it('still verifies a good credential', async () => {
    const verified = await verifyConnection(emulator, verifyBody(productId, material))
    expect(verified.status).toBe(200)
    expect(verified.body.verified).toBe(true)
  })

  it('answers every failure with the same body and no reason', async () => {
    const attempts = [
      verifyBody('prod_doesNotExist', material),
      { ...verifyBody(productId, material), appId: 'app_NotThisProduct0000000000' },
      { ...verifyBody(productId, material), pluginKey: 'pk_0000000000000000000000000000' },
      { ...verifyBody(productId, material), pluginSecret: 'sk_0000000000000000000000000000' }
    ]
    const bodies: unknown[] = []
    for (const attempt of attempts) {
      const failed = await verifyConnection(emulator, attempt)
      expectError(failed, 401, 'PLUGIN_CONNECTION_FAILED')
      expect(failed.body.verified).toBe(false)
      expect(failed.body).not.toHaveProperty('reason')
      expect(failed.text).not.toMatch(/UNKNOWN_PRODUCT|APP_ID_MISMATCH|KEY_MISMATCH|SECRET_MISMATCH|CREDENTIAL_REVOKED/)
      bodies.push(failed.body)
    }
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1)
  })

  it('still records the reason in the connection status record for the emulator user', async () => {
    await verifyConnection(emulator, {
      ...verifyBody(productId, material),
      pluginSecret: 'sk_0000000000000000000000000000'
    })
    const status = await emulator.control('GET', `/products/${productId}/connection`)
    expect(status.body.connection.lastStatus).toBe('failed')
    expect(status.body.connection.lastReason).toBe('SECRET_MISMATCH')
  })
})
