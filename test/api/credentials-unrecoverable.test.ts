import { describe, expect, it } from 'vitest'

import {
  credentialPath,
  expectError,
  issueCredential,
  ownedProduct,
  verifyBody,
  verifyConnection
} from '../support/credentials'
import type { OwnedProduct } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// reveal-secret on a credential with no recoverable secret: 409 PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE with recovery paths.
function expectSecretUnavailable(result: Awaited<ReturnType<OwnedProduct['api']['act']>>, productId: string): void {
  expectError(result, 409, 'PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE')
  expect(result.body.recovery).toEqual({
    rotateKey: credentialPath(productId, 'rotate-key'),
    rotateSecret: credentialPath(productId, 'rotate-secret')
  })
}

describe('legacy (unrecoverable) credential made through the control plane', () => {
  const emulator = useEmulator()

  const legacyCredential = async (owned: OwnedProduct) => {
    const made = await emulator.control('POST', `/products/${owned.product.id}/legacy-credential`)
    expect(made.status).toBe(201)
    expect(made.body.ok).toBe(true)
    expect(made.body.credential).toMatchObject({
      productId: owned.product.id,
      status: 'active',
      hasRecoverableSecret: false
    })
    return made.body as {
      credential: { id: string }
      oneTimeReveal: { appId: string; pluginKey: string; pluginSecret: string }
    }
  }

  it('is active and verifies, but reveal-secret answers 409 with recovery paths', async () => {
    const owned = await ownedProduct(emulator)
    const legacy = await legacyCredential(owned)
    expect((await verifyConnection(emulator, verifyBody(owned.product.id, legacy.oneTimeReveal))).status).toBe(200)

    const revealed = await owned.api.act(owned.product.id, 'reveal-secret')
    expectSecretUnavailable(revealed, owned.product.id)
    expect(revealed.text).not.toContain(legacy.oneTimeReveal.pluginSecret)
    expect((await owned.api.get(owned.product.id)).body.credential).toMatchObject({
      id: legacy.credential.id,
      status: 'active'
    })
  })

  it('recovers through the rotate-secret path the error names', async () => {
    const owned = await ownedProduct(emulator)
    const legacy = await legacyCredential(owned)
    const refused = await owned.api.act(owned.product.id, 'reveal-secret')
    const rotated = await emulator.request('POST', refused.body.recovery.rotateSecret, {
      token: owned.developer.token,
      body: {}
    })
    expect(rotated.status).toBe(201)
    expect(rotated.body.previous_credential.id).toBe(legacy.credential.id)
    expect(rotated.body.credential.hasRecoverableSecret).toBe(true)

    const revealed = await owned.api.act(owned.product.id, 'reveal-secret')
    expect(revealed.status).toBe(200)
    expect(revealed.body.one_time_reveal.pluginSecret).toBe(rotated.body.one_time_reveal.pluginSecret)
    expect(revealed.body.one_time_reveal.ProductSecret).toBe(rotated.body.one_time_reveal.pluginSecret)
  })

  it('recovers through the rotate-key path too', async () => {
    const owned = await ownedProduct(emulator)
    await legacyCredential(owned)
    const refused = await owned.api.act(owned.product.id, 'reveal-secret')
    const rotated = await emulator.request('POST', refused.body.recovery.rotateKey, { token: owned.developer.token })
    expect(rotated.status).toBe(201)
    expect((await owned.api.act(owned.product.id, 'reveal-secret')).status).toBe(200)
  })

  it('is refused with 409 ACTIVE_CREDENTIAL_EXISTS while another credential is active', async () => {
    const owned = await ownedProduct(emulator)
    await issueCredential(owned.api, owned.product.id)
    expectError(
      await emulator.control('POST', `/products/${owned.product.id}/legacy-credential`),
      409,
      'ACTIVE_CREDENTIAL_EXISTS'
    )
  })
})

describe('server started without a runtime key', () => {
  const emulator = useEmulator({ runtimeKey: null })

  it('creates credentials with hasRecoverableSecret false, and reveal-secret answers 409 with recovery paths', async () => {
    const owned = await ownedProduct(emulator)
    const issued = await issueCredential(owned.api, owned.product.id)
    expect(issued.credential.hasRecoverableSecret).toBe(false)
    expectSecretUnavailable(await owned.api.act(owned.product.id, 'reveal-secret'), owned.product.id)
  })

  it('keeps new credentials unrecoverable after a rotation and through ensure', async () => {
    const owned = await ownedProduct(emulator)
    const ensured = await owned.api.act(owned.product.id, 'ensure')
    expect(ensured.status).toBe(201)
    expect(ensured.body.credential.hasRecoverableSecret).toBe(false)
    const rotated = await owned.api.act(owned.product.id, 'rotate-secret')
    expect(rotated.status).toBe(201)
    expect(rotated.body.credential.hasRecoverableSecret).toBe(false)
    // The rotated material is still shown once, and works.
    expect((await verifyConnection(emulator, verifyBody(owned.product.id, rotated.body.one_time_reveal))).status).toBe(
      200
    )
    expectSecretUnavailable(await owned.api.act(owned.product.id, 'reveal-secret'), owned.product.id)
  })
})
