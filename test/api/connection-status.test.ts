import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { expectError, issueCredential, ownedProduct, verifyBody, verifyConnection } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// Every verification attempt updates the product's connection status record (GET /_emulator/products/:id/connection).
describe('connection status record', () => {
  const base = Date.parse('2032-07-08T09:10:11.000Z')
  const clock = createClock(() => base)
  const emulator = useEmulator({ clock })

  const statusOf = async (productId: string) => {
    const status = await emulator.control('GET', `/products/${productId}/connection`)
    expect(status.status).toBe(200)
    expect(status.body.ok).toBe(true)
    return status.body.connection as Record<string, unknown> | null
  }

  it('is null before the first attempt', async () => {
    const { product } = await ownedProduct(emulator)
    expect(await statusOf(product.id)).toBeNull()
  })

  it('counts attempts, successes and failures, with the last status, reason and times', async () => {
    clock.setOffsetMs(0)
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    const good = verifyBody(product.id, issued.material)
    const badSecret = { ...good, pluginSecret: 'sk_0000000000000000000000000000' }

    expect((await verifyConnection(emulator, good)).status).toBe(200)
    expect(await statusOf(product.id)).toEqual({
      productId: product.id,
      lastStatus: 'verified',
      lastReason: null,
      lastAttemptAt: '2032-07-08T09:10:11.000Z',
      lastVerifiedAt: '2032-07-08T09:10:11.000Z',
      lastCredentialId: issued.credential.id,
      attemptCount: 1,
      successCount: 1,
      failureCount: 0
    })

    clock.setOffsetMs(60_000)
    expect((await verifyConnection(emulator, badSecret)).status).toBe(401)
    expect((await verifyConnection(emulator, { ...good, appId: 'app_NotThisProduct0000000000' })).status).toBe(401)
    expect(await statusOf(product.id)).toMatchObject({
      lastStatus: 'failed',
      lastReason: 'APP_ID_MISMATCH',
      lastAttemptAt: '2032-07-08T09:11:11.000Z',
      lastVerifiedAt: '2032-07-08T09:10:11.000Z',
      attemptCount: 3,
      successCount: 1,
      failureCount: 2
    })

    clock.setOffsetMs(120_000)
    expect((await verifyConnection(emulator, good)).status).toBe(200)
    expect(await statusOf(product.id)).toMatchObject({
      lastStatus: 'verified',
      lastReason: null,
      lastVerifiedAt: '2032-07-08T09:12:11.000Z',
      attemptCount: 4,
      successCount: 2,
      failureCount: 2
    })
  })

  it('records a revoked credential as a failure with reason CREDENTIAL_REVOKED', async () => {
    const { api, product } = await ownedProduct(emulator)
    const issued = await issueCredential(api, product.id)
    await api.act(product.id, 'revoke')
    await verifyConnection(emulator, verifyBody(product.id, issued.material))
    expect(await statusOf(product.id)).toMatchObject({
      lastStatus: 'failed',
      lastReason: 'CREDENTIAL_REVOKED',
      attemptCount: 1,
      failureCount: 1
    })
  })

  it('is kept per product: attempts on one product do not touch another', async () => {
    const first = await ownedProduct(emulator)
    const second = await ownedProduct(emulator)
    const issued = await issueCredential(first.api, first.product.id)
    await verifyConnection(emulator, verifyBody(first.product.id, issued.material))
    expect(await statusOf(second.product.id)).toBeNull()
  })

  it('answers 404 PRODUCT_NOT_FOUND for an unknown product', async () => {
    expectError(await emulator.control('GET', '/products/prod_doesNotExist/connection'), 404, 'PRODUCT_NOT_FOUND')
  })
})
