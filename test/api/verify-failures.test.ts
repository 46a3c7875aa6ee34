import { beforeAll, describe, expect, it } from 'vitest'

import { expectError, issueCredential, ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import type { Material } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'

// Failures: 401 { ok:false, verified:false, error:"PLUGIN_CONNECTION_FAILED", message, reason } (docs/api.md section 3).
function expectFailure(result: HttpResult, reason: string): void {
  expectError(result, 401, 'PLUGIN_CONNECTION_FAILED')
  expect(result.body.verified).toBe(false)
  expect(result.body.reason).toBe(reason)
}

describe('plugin connection verification: failures', () => {
  let productId: string
  let material: Material
  let otherProductId: string
  let otherMaterial: Material

  const emulator = useEmulator()
  beforeAll(async () => {
    const first = await ownedProduct(emulator)
    productId = first.product.id
    material = (await issueCredential(first.api, productId)).material
    const second = await ownedProduct(emulator)
    otherProductId = second.product.id
    otherMaterial = (await issueCredential(second.api, otherProductId)).material
  })

  it('UNKNOWN_PRODUCT for a product ID that does not exist', async () => {
    expectFailure(await verifyConnection(emulator, verifyBody('prod_doesNotExist', material)), 'UNKNOWN_PRODUCT')
  })

  it('UNKNOWN_PRODUCT when the App ID is sent as the product ID', async () => {
    expectFailure(await verifyConnection(emulator, verifyBody(material.appId, material)), 'UNKNOWN_PRODUCT')
  })

  it('APP_ID_MISMATCH for the App ID of another product', async () => {
    expectFailure(
      await verifyConnection(emulator, { ...verifyBody(productId, material), appId: otherMaterial.appId }),
      'APP_ID_MISMATCH'
    )
  })

  it('KEY_MISMATCH for an unknown plugin key', async () => {
    expectFailure(
      await verifyConnection(emulator, {
        ...verifyBody(productId, material),
        pluginKey: 'pk_0000000000000000000000000000'
      }),
      'KEY_MISMATCH'
    )
  })

  it('KEY_MISMATCH for the plugin key of another product', async () => {
    expectFailure(
      await verifyConnection(emulator, { ...verifyBody(productId, material), pluginKey: otherMaterial.pluginKey }),
      'KEY_MISMATCH'
    )
  })

  it('SECRET_MISMATCH for a wrong plugin secret', async () => {
    expectFailure(
      await verifyConnection(emulator, {
        ...verifyBody(productId, material),
        pluginSecret: `${material.pluginSecret}x`
      }),
      'SECRET_MISMATCH'
    )
  })

  it('SECRET_MISMATCH for the secret of another product', async () => {
    expectFailure(
      await verifyConnection(emulator, {
        ...verifyBody(productId, material),
        pluginSecret: otherMaterial.pluginSecret
      }),
      'SECRET_MISMATCH'
    )
  })

  it('CREDENTIAL_REVOKED after revoke, until a new credential is issued', async () => {
    const owned = await ownedProduct(emulator)
    const issued = await issueCredential(owned.api, owned.product.id)
    await owned.api.act(owned.product.id, 'revoke')
    expectFailure(await verifyConnection(emulator, verifyBody(owned.product.id, issued.material)), 'CREDENTIAL_REVOKED')

    const replacement = await issueCredential(owned.api, owned.product.id)
    expect((await verifyConnection(emulator, verifyBody(owned.product.id, replacement.material))).status).toBe(200)
    expectFailure(await verifyConnection(emulator, verifyBody(owned.product.id, issued.material)), 'CREDENTIAL_REVOKED')
  })

  it.each(['rotate-key', 'rotate-secret'] as const)(
    'CREDENTIAL_REVOKED for the material replaced by %s',
    async (action) => {
      const owned = await ownedProduct(emulator)
      const issued = await issueCredential(owned.api, owned.product.id)
      const rotated = await owned.api.act(owned.product.id, action)
      expect(rotated.status).toBe(201)
      expectFailure(
        await verifyConnection(emulator, verifyBody(owned.product.id, issued.material)),
        'CREDENTIAL_REVOKED'
      )
      // Mixing the new key with the old secret is no better.
      expectFailure(
        await verifyConnection(emulator, {
          ...verifyBody(owned.product.id, issued.material),
          pluginKey: rotated.body.one_time_reveal.pluginKey
        }),
        'SECRET_MISMATCH'
      )
    }
  )

  it('never echoes the submitted key or secret in a failure', async () => {
    const wrongSecret = 'sk_ThisIsNotTheSecretButLooksLikeOne1'
    const failed = await verifyConnection(emulator, { ...verifyBody(productId, material), pluginSecret: wrongSecret })
    expect(failed.text).not.toContain(wrongSecret)
    expect(failed.text).not.toContain(material.pluginKey)
  })
})
