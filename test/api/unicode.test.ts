import { describe, expect, it } from 'vitest'

import { issueCredential, ownedProduct } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// Unicode in free text round-trips exactly: reasons, metadata, product and developer names.
describe('unicode in reasons, metadata and names', () => {
  const emulator = useEmulator()

  const text = 'Grüße aus Köln — 日本語 🎹🎛️ ﷽ \u202Eevil\u202C e\u0301'

  it('keeps a unicode reason and metadata in the audit trail and on the revoked credential', async () => {
    const { api, product } = await ownedProduct(emulator)
    await issueCredential(api, product.id, { reason: text, metadata: { clé: text, emoji: '🎚️' } })
    const revoked = await api.act(product.id, 'revoke', { reason: text })
    expect(revoked.status).toBe(200)
    expect(revoked.body.credential.revokedReason).toBe(text)
    const audit = await emulator.control('GET', `/products/${product.id}/audit`)
    const [revokeEntry, createEntry] = audit.body.entries
    expect(revokeEntry.reason).toBe(text)
    expect(createEntry.reason).toBe(text)
    expect(createEntry.metadata).toEqual({ clé: text, emoji: '🎚️' })
  })

  it('keeps unicode product and developer names', async () => {
    const created = await emulator.control('POST', '/developers', {
      email: 'jürgen@exämple.test',
      name: 'Jürgen 🎸 Müller'
    })
    expect(created.status).toBe(201)
    expect(created.body.developer).toMatchObject({ email: 'jürgen@exämple.test', name: 'Jürgen 🎸 Müller' })
    const product = await emulator.control('POST', '/products', { developerId: created.body.developer.id, name: text })
    expect(product.status).toBe(201)
    expect(product.body.product.name).toBe(text)
    const listed = await emulator.control('GET', '/products')
    expect(listed.body.products.some((p: { name: string }) => p.name === text)).toBe(true)
  })

  it('counts a 1000-character reason in characters, not bytes', async () => {
    const { api, product } = await ownedProduct(emulator)
    const result = await api.create(product.id, { reason: 'ü'.repeat(1000) })
    expect(result.status).toBe(201)
  })
})
