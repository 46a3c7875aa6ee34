import { beforeAll, describe, expect, it } from 'vitest'

import { expectError, issueCredential, managementClient } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// POST/GET /_emulator/products and the per-product inspection routes.
describe('control plane: products', () => {
  let developer: { id: string; token: string }
  const emulator = useEmulator()
  beforeAll(async () => {
    developer = await emulator.createDeveloper()
  })

  it('creates a product: 201 with id, developerId, name and its own App ID', async () => {
    const created = await emulator.control('POST', '/products', {
      developerId: developer.id,
      name: 'Tape Delay',
      storefrontSlug: 'tape-delay'
    })
    expect(created.status).toBe(201)
    expect(created.body.ok).toBe(true)
    expect(created.body.product).toMatchObject({
      id: expect.stringMatching(/^prod_/),
      developerId: developer.id,
      name: 'Tape Delay',
      appId: expect.stringMatching(/^app_[A-Za-z0-9]{22,}$/),
      storefrontSlug: 'tape-delay'
    })
    expect(created.body.product.appId).not.toBe(created.body.product.id)
    const listed = await emulator.control('GET', '/products')
    expect(listed.body.products.map((p: { id: string }) => p.id)).toContain(created.body.product.id)
    // The owner can manage it at once.
    const api = managementClient(emulator, developer.token)
    expect((await api.create(created.body.product.id)).status).toBe(201)
  })

  it('gives every product a different App ID', async () => {
    const first = await emulator.createProduct(developer.id, 'One')
    const second = await emulator.createProduct(developer.id, 'Two')
    expect(first.appId).not.toBe(second.appId)
  })

  it('lists the products one developer sees (visibleTo): their own, every product for an admin, as the management API lets them act', async () => {
    const owner = await emulator.createDeveloper()
    const other = await emulator.createDeveloper()
    const admin = (
      await emulator.control('POST', '/developers', { email: 'visible-admin@example.test', role: 'admin' })
    ).body.developer as { id: string }
    const mine = await emulator.createProduct(owner.id, 'Mine')
    const theirs = await emulator.createProduct(other.id, 'Theirs')
    const ids = async (query: string) => {
      const listed = await emulator.control('GET', `/products${query}`)
      expect(listed.status).toBe(200)
      return listed.body.products.map((p: { id: string }) => p.id) as string[]
    }
    expect(await ids(`?visibleTo=${owner.id}`)).toEqual([mine.id])
    const everything = await ids('')
    expect(everything).toEqual(expect.arrayContaining([mine.id, theirs.id]))
    expect(await ids(`?visibleTo=${admin.id}`)).toEqual(everything)
    // What it lists is what the management API lets that developer act on.
    expect((await managementClient(emulator, owner.token).create(mine.id)).status).toBe(201)
    expectError(await managementClient(emulator, owner.token).create(theirs.id), 404, 'PRODUCT_NOT_FOUND')
    expectError(await emulator.control('GET', '/products?visibleTo=dev_nobody'), 404, 'DEVELOPER_NOT_FOUND')
    expectError(await emulator.control('GET', '/products?visibleTo='), 400, 'VALIDATION_ERROR')
  })

  it('answers 404 DEVELOPER_NOT_FOUND for an unknown developerId', async () => {
    const before = (await emulator.control('GET', '/products')).body.products.length
    expectError(
      await emulator.control('POST', '/products', { developerId: 'dev_doesNotExist', name: 'Orphan' }),
      404,
      'DEVELOPER_NOT_FOUND'
    )
    expect((await emulator.control('GET', '/products')).body.products.length).toBe(before)
  })

  it('answers 400 VALIDATION_ERROR for a missing name, a bad slug or an unknown field', async () => {
    for (const body of [
      { developerId: developer.id },
      { developerId: developer.id, name: '' },
      { developerId: developer.id, name: 'X', storefrontSlug: 'Not A Slug' },
      { developerId: developer.id, name: 'X', appId: 'app_mine' }
    ]) {
      expectError(await emulator.control('POST', '/products', body), 400, 'VALIDATION_ERROR')
    }
  })

  it('lists a product\u2019s credentials newest first, its audit trail and its connection record', async () => {
    const product = await emulator.createProduct(developer.id, 'Inspected')
    const api = managementClient(emulator, developer.token)
    const issued = await issueCredential(api, product.id)
    const rotated = await api.act(product.id, 'rotate-key')
    const credentials = await emulator.control('GET', `/products/${product.id}/credentials`)
    expect(credentials.status).toBe(200)
    expect(credentials.body.credentials.map((c: { id: string }) => c.id)).toEqual([
      rotated.body.credential.id,
      issued.credential.id
    ])
    expect(credentials.text).not.toContain(issued.material.pluginSecret)
    const audit = await emulator.control('GET', `/products/${product.id}/audit`)
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(['rotate-key', 'create'])
    expect((await emulator.control('GET', `/products/${product.id}/connection`)).body).toEqual({
      ok: true,
      connection: null
    })
  })

  it('answers 404 PRODUCT_NOT_FOUND on every per-product route for an unknown product', async () => {
    expectError(
      await emulator.control('POST', '/products/prod_doesNotExist/legacy-credential', {}),
      404,
      'PRODUCT_NOT_FOUND'
    )
    for (const what of ['credentials', 'audit', 'connection']) {
      expectError(await emulator.control('GET', `/products/prod_doesNotExist/${what}`), 404, 'PRODUCT_NOT_FOUND')
    }
  })
})
