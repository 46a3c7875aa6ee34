import { beforeAll, describe, expect, it } from 'vitest'

import { issueCredential, ownedProduct } from '../support/credentials'
import type { OwnedProduct } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// An admin developer sees and manages every product (docs/api.md section 2).
describe('admin developer', () => {
  let a: OwnedProduct
  let c: OwnedProduct
  let admin: OwnedProduct
  const emulator = useEmulator()
  beforeAll(async () => {
    a = await ownedProduct(emulator)
    c = await ownedProduct(emulator)
    admin = await ownedProduct(emulator, { role: 'admin' })
    await issueCredential(a.api, a.product.id)
    await issueCredential(c.api, c.product.id)
  })

  it('lists the credentials of every developer\u2019s products, and filters to any of them', async () => {
    const all = await admin.api.list()
    expect(all.status).toBe(200)
    const productIds = new Set(all.body.credentials.map((cred: { productId: string }) => cred.productId))
    expect(productIds.has(a.product.id)).toBe(true)
    expect(productIds.has(c.product.id)).toBe(true)

    const filtered = await admin.api.list(a.product.id)
    expect(filtered.body.count).toBe(1)
    expect(filtered.body.credentials[0].productId).toBe(a.product.id)
  })

  it('gets, reveals, rotates and revokes another developer\u2019s credential, recorded as the admin', async () => {
    expect((await admin.api.get(a.product.id)).status).toBe(200)
    const revealed = await admin.api.act(a.product.id, 'reveal-secret', { reason: 'support case' })
    expect(revealed.status).toBe(200)
    const rotated = await admin.api.act(a.product.id, 'rotate-key')
    expect(rotated.status).toBe(201)
    expect(rotated.body.credential.createdBy).toBe(admin.developer.id)
    const revoked = await admin.api.act(a.product.id, 'revoke')
    expect(revoked.body.revoked).toBe(true)

    const audit = await emulator.control('GET', `/products/${a.product.id}/audit`)
    const [latest, , reveal] = audit.body.entries as Array<{ action: string; actorId: string }>
    expect(latest).toMatchObject({ action: 'revoke', actorId: admin.developer.id })
    expect(reveal).toMatchObject({ action: 'reveal-secret', actorId: admin.developer.id })
    // The owner sees what the admin did.
    expect((await a.api.get(a.product.id)).body.status).toBe('revoked')
  })

  it('creates a credential on another developer\u2019s product', async () => {
    const ensured = await admin.api.act(c.product.id, 'rotate-secret')
    expect(ensured.status).toBe(201)
    const created = await admin.api.act(a.product.id, 'ensure')
    expect(created.status).toBe(201)
    expect(created.body.credential.createdBy).toBe(admin.developer.id)
  })

  it('does not make an ordinary developer see the admin\u2019s products', async () => {
    await issueCredential(admin.api, admin.product.id)
    const listed = await a.api.list()
    expect(listed.body.credentials.some((cred: { productId: string }) => cred.productId === admin.product.id)).toBe(
      false
    )
  })
})
