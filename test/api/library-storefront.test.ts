import { beforeAll, describe, expect, it } from 'vitest'

import {
  createCustomer,
  getLibrary,
  libraryTokenOf,
  purchase,
  storefrontProductWithCredential
} from '../support/commerce'
import { useEmulator } from '../support/emulator'

// `storefront` / `storefrontSlug` filter the library to one storefront (docs/api.md section 4).
describe('GET /api/library: the storefront filter', () => {
  let token: string
  const names = (items: Array<{ name?: string; product_name?: string }>) =>
    items.map((i) => i.name ?? i.product_name).sort()

  const emu = useEmulator()
  beforeAll(async () => {
    const developer = await emu.createDeveloper()
    const north = await storefrontProductWithCredential(emu, developer, {
      name: 'North Compressor',
      storefrontSlug: 'north-audio'
    })
    const northSub = await storefrontProductWithCredential(emu, developer, {
      name: 'North Cloud',
      storefrontSlug: 'north-audio'
    })
    const south = await storefrontProductWithCredential(emu, developer, {
      name: 'South Delay',
      storefrontSlug: 'south-audio'
    })
    const nowhere = await storefrontProductWithCredential(emu, developer, { name: 'Unlisted Gate' })
    const customer = await createCustomer(emu)
    await purchase(emu, customer.id, north.productId)
    await purchase(emu, customer.id, northSub.productId, { kind: 'subscription' })
    await purchase(emu, customer.id, south.productId, { kind: 'subscription' })
    await purchase(emu, customer.id, nowhere.productId)
    token = await libraryTokenOf(emu, customer.id)
  })

  it('shows every storefront without a filter', async () => {
    const all = await getLibrary(emu, token)
    expect(all.status).toBe(200)
    expect(names(all.body.products)).toEqual(['North Cloud', 'North Compressor', 'South Delay', 'Unlisted Gate'])
    expect(all.body.licenses).toHaveLength(4)
    expect(all.body.orders).toHaveLength(4)
    expect(all.body.subscriptions).toHaveLength(2)
  })

  it.each(['storefront', 'storefrontSlug'])('?%s= keeps only that storefront in every group', async (param) => {
    const north = await getLibrary(emu, token, { [param]: 'north-audio' })
    expect(north.status, north.text).toBe(200)
    expect(names(north.body.products)).toEqual(['North Cloud', 'North Compressor'])
    expect(north.body.products.every((p: { storefront_slug: string }) => p.storefront_slug === 'north-audio')).toBe(
      true
    )
    expect(names(north.body.licenses)).toEqual(['North Cloud', 'North Compressor'])
    expect(names(north.body.subscriptions)).toEqual(['North Cloud'])
    expect(north.body.orders).toHaveLength(2)
    expect(north.body.orders.every((o: { storefront_slug: string }) => o.storefront_slug === 'north-audio')).toBe(true)
    expect(north.body.support.product_contacts.map((c: { product_name: string }) => c.product_name).sort()).toEqual([
      'North Cloud',
      'North Compressor'
    ])

    const south = await getLibrary(emu, token, { [param]: 'south-audio' })
    expect(names(south.body.products)).toEqual(['South Delay'])
    expect(names(south.body.licenses)).toEqual(['South Delay'])
    expect(names(south.body.subscriptions)).toEqual(['South Delay'])
    expect(south.body.orders.map((o: { items: Array<{ product_name: string }> }) => o.items[0]?.product_name)).toEqual([
      'South Delay'
    ])
  })

  it('an unknown storefront gives empty groups, not an error, and keeps the profile', async () => {
    const none = await getLibrary(emu, token, { storefront: 'no-such-store' })
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ ok: true, products: [], licenses: [], subscriptions: [], orders: [] })
    expect(typeof none.body.profile.email).toBe('string')
    expect(typeof none.body.download_token).toBe('string')
  })
})
