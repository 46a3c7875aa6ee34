import { describe, expect, it } from 'vitest'

import { expectError, issueCredential, ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import { countActiveCredentials } from '../support/database'
import { useEmulator } from '../support/emulator'

// POST .../rotate-key and .../rotate-secret: 201, previous revoked, both key and secret replaced, App ID kept.
describe.each(['rotate-key', 'rotate-secret'] as const)('%s', (action) => {
  const emulator = useEmulator()

  it('answers 201 with the replacement, its one_time_reveal and the revoked previous credential', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    const rotated = await api.act(product.id, action, { reason: 'scheduled rotation' })
    expect(rotated.status).toBe(201)
    expect(rotated.body.ok).toBe(true)
    expect(rotated.body.rotated).toBe(true)

    const { credential, previous_credential: previous, one_time_reveal: reveal } = rotated.body
    expect(previous).toMatchObject({
      id: issued.credential.id,
      status: 'revoked',
      isActive: false,
      revocationCause: action,
      replacedById: credential.id,
      revokedReason: 'scheduled rotation'
    })
    expect(previous.revokedAt).toEqual(expect.any(String))
    expect(credential).toMatchObject({
      status: 'active',
      isActive: true,
      rotatedFromId: issued.credential.id,
      productId: product.id
    })
    expect(credential.id).not.toBe(issued.credential.id)

    // Both the key and the secret change in either operation; the App ID stays.
    expect(reveal.appId).toBe(issued.material.appId)
    expect(credential.appId).toBe(product.appId)
    expect(reveal.pluginKey).not.toBe(issued.material.pluginKey)
    expect(reveal.pluginSecret).not.toBe(issued.material.pluginSecret)
    expect(reveal.pluginKey).toMatch(/^pk_[A-Za-z0-9]{22,}$/)
    expect(reveal.pluginSecret).toMatch(/^sk_[A-Za-z0-9]{22,}$/)
    expect(reveal.secret_shown_once).toBe(true)

    expect(countActiveCredentials(emulator.databasePath, product.id)).toBe(1)
    expect((await verifyConnection(emulator, verifyBody(product.id, reveal))).status).toBe(200)
    const old = await verifyConnection(emulator, verifyBody(product.id, issued.material))
    expect(old.status).toBe(401)
    expect(old.body.reason).toBe('CREDENTIAL_REVOKED')
  })

  it('can rotate again and again, each time revoking the one before', async () => {
    const { api, product } = await ownedProduct(emulator)
    await issueCredential(api, product.id)
    const second = await api.act(product.id, action)
    const third = await api.act(product.id, action)
    expect(third.status).toBe(201)
    expect(third.body.previous_credential.id).toBe(second.body.credential.id)
    const listed = await api.list(product.id)
    expect(listed.body.credentials.map((c: { status: string }) => c.status)).toEqual(['active', 'revoked', 'revoked'])
  })

  it('answers 404 PRODUCT_CREDENTIAL_NOT_FOUND when nothing is active', async () => {
    const { api, product } = await ownedProduct(emulator)
    expectError(await api.act(product.id, action), 404, 'PRODUCT_CREDENTIAL_NOT_FOUND')
    await issueCredential(api, product.id)
    await api.act(product.id, 'revoke')
    expectError(await api.act(product.id, action), 404, 'PRODUCT_CREDENTIAL_NOT_FOUND')
    expect(countActiveCredentials(emulator.databasePath, product.id)).toBe(0)
  })
})
