import { beforeAll, describe, expect, it } from 'vitest'

import { CREDENTIAL_ACTIONS, expectError, issueCredential, ownedProduct } from '../support/credentials'
import type { ManagementClient, Material, OwnedProduct } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'

// Ownership: another developer's product answers exactly like an unknown one, 404 PRODUCT_NOT_FOUND.
describe('developer B and developer A\u2019s product', () => {
  let a: OwnedProduct
  let b: OwnedProduct
  let aMaterial: Material
  const emulator = useEmulator()
  beforeAll(async () => {
    a = await ownedProduct(emulator)
    b = await ownedProduct(emulator)
    aMaterial = (await issueCredential(a.api, a.product.id)).material
    await issueCredential(b.api, b.product.id)
  })

  const everyProductCall = (api: ManagementClient, productId: string): Array<Promise<HttpResult>> => [
    api.get(productId),
    api.create(productId),
    ...CREDENTIAL_ACTIONS.map((action) => api.act(productId, action, { reason: 'probing' }))
  ]

  it('answers 404 PRODUCT_NOT_FOUND on every endpoint, with the body of an unknown product', async () => {
    const unknownId = 'prod_doesNotExist00'
    const foreign = await Promise.all(everyProductCall(b.api, a.product.id))
    const unknown = await Promise.all(everyProductCall(b.api, unknownId))
    expect(foreign).toHaveLength(7)
    foreign.forEach((result, i) => {
      expectError(result, 404, 'PRODUCT_NOT_FOUND')
      const unknownResult = unknown[i] as HttpResult
      expect(result.status).toBe(unknownResult.status)
      // Identical but for the ID the caller sent.
      expect(result.text.replaceAll(a.product.id, '<id>')).toBe(unknownResult.text.replaceAll(unknownId, '<id>'))
      expect(result.text).not.toContain(aMaterial.pluginKey)
      expect(result.text).not.toContain(aMaterial.pluginSecret)
      expect(result.text).not.toContain(a.developer.id)
    })
  })

  it('leaves A\u2019s credential exactly as it was', async () => {
    const listed = await a.api.list(a.product.id)
    expect(listed.body.count).toBe(1)
    expect(listed.body.credentials[0]).toMatchObject({ status: 'active', revealCount: 0, rotatedFromId: null })
    const audit = await emulator.control('GET', `/products/${a.product.id}/audit`)
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(['create'])
  })

  it('does not show A\u2019s credentials in B\u2019s list, with or without the productId filter', async () => {
    const all = await b.api.list()
    expect(all.body.count).toBe(1)
    expect(all.body.credentials.every((c: { productId: string }) => c.productId === b.product.id)).toBe(true)
    expect(all.text).not.toContain(a.product.id)

    const filtered = await b.api.list(a.product.id)
    const unknown = await b.api.list('prod_doesNotExist00')
    expect(filtered.status).toBe(200)
    expect(filtered.body).toEqual({ ok: true, credentials: [], count: 0 })
    expect(filtered.body).toEqual(unknown.body)
  })

  it('still lets A manage A\u2019s own product', async () => {
    const rotated = await a.api.act(a.product.id, 'rotate-secret')
    expect(rotated.status).toBe(201)
  })
})
