import { describe, expect, it } from 'vitest'

import { issueCredential, ownedProduct } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// GET /api/developer/plugin-keys/products: every credential of the visible products, newest first, revoked included.
describe('list product credentials', () => {
  const emulator = useEmulator()

  it('answers an empty list for a developer with no credentials', async () => {
    const { api } = await ownedProduct(emulator)
    const listed = await api.list()
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({ ok: true, credentials: [], count: 0 })
  })

  it('lists every credential newest first, revoked ones included, with previews only', async () => {
    const { api, product } = await ownedProduct(emulator)
    const first = await issueCredential(api, product.id)
    const second = await api.act(product.id, 'rotate-key')
    const third = await api.act(product.id, 'rotate-secret')
    expect([second.status, third.status]).toEqual([201, 201])

    const listed = await api.list()
    expect(listed.status).toBe(200)
    expect(listed.body.ok).toBe(true)
    expect(listed.body.count).toBe(3)
    expect(listed.body.credentials.map((c: { id: string }) => c.id)).toEqual([
      third.body.credential.id,
      second.body.credential.id,
      first.credential.id
    ])
    expect(listed.body.credentials.map((c: { status: string; isActive: boolean }) => [c.status, c.isActive])).toEqual([
      ['active', true],
      ['revoked', false],
      ['revoked', false]
    ])

    // Previews, never the full values; one-time reveal metadata on every record.
    const firstRecord = listed.body.credentials[2]
    expect(firstRecord.pluginKeyPreview).toBe(
      `${first.material.pluginKey.slice(0, 8)}...${first.material.pluginKey.slice(-4)}`
    )
    expect(firstRecord.pluginSecretPreview).toBe(
      `${first.material.pluginSecret.slice(0, 8)}...${first.material.pluginSecret.slice(-4)}`
    )
    expect(firstRecord.secretShownOnce).toBe(true)
    expect(listed.text).not.toContain(first.material.pluginKey)
    expect(listed.text).not.toContain(first.material.pluginSecret)
    expect(listed.text).not.toContain(third.body.one_time_reveal.pluginSecret)
    expect(listed.text).not.toContain('one_time_reveal')
  })

  it('lists each credential as the same record the single-credential answers give', async () => {
    const { api, product } = await ownedProduct(emulator)
    await issueCredential(api, product.id)
    await api.act(product.id, 'reveal-secret', { reason: 'support ticket' })
    const revoked = await api.act(product.id, 'revoke', { reason: 'leaked' })
    expect(revoked.status).toBe(200)
    const legacy = await emulator.control('POST', `/products/${product.id}/legacy-credential`, {})
    expect(legacy.status).toBe(201)
    const current = await api.get(product.id)
    expect(current.status).toBe(200)

    const listed = (await api.list()).body.credentials
    expect(listed).toHaveLength(2)
    // The list reads fewer columns than the single answers; the records must not differ.
    expect(listed[0]).toEqual(current.body.credential)
    expect(listed[0].hasRecoverableSecret).toBe(false)
    expect(listed[1]).toEqual(revoked.body.credential)
    expect(listed[1]).toMatchObject({
      hasRecoverableSecret: true,
      revealCount: 1,
      revokedReason: 'leaked',
      revocationCause: 'revoke'
    })
  })

  it('filters by productId, and without the filter covers all of the developer\u2019s products', async () => {
    const { api, product, developer } = await ownedProduct(emulator)
    const other = await emulator.createProduct(developer.id, 'Second Synth')
    await issueCredential(api, product.id)
    await issueCredential(api, other.id)
    await api.act(other.id, 'rotate-key')

    const all = await api.list()
    expect(all.body.count).toBe(3)
    expect(new Set(all.body.credentials.map((c: { productId: string }) => c.productId))).toEqual(
      new Set([product.id, other.id])
    )

    const onlyFirst = await api.list(product.id)
    expect(onlyFirst.status).toBe(200)
    expect(onlyFirst.body.count).toBe(1)
    expect(onlyFirst.body.credentials[0].productId).toBe(product.id)

    const onlyOther = await api.list(other.id)
    expect(onlyOther.body.count).toBe(2)
    expect(onlyOther.body.credentials.every((c: { productId: string }) => c.productId === other.id)).toBe(true)
  })

  it('answers an empty list when filtering by a product that does not exist', async () => {
    const { api } = await ownedProduct(emulator)
    const listed = await api.list('prod_doesNotExist')
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({ ok: true, credentials: [], count: 0 })
  })
})
