import { beforeAll, describe, expect, it } from 'vitest'

import { createCustomer, customerSession, getLibrary, libraryTokenOf, resellerOrder } from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// POST /api/library/claim (docs/api.md sections 1 and 4): a signed-in user links a
// reseller/partner order item to their account: an entitlement and a license appear.
describe('POST /api/library/claim: claiming a reseller order item', () => {
  let product: PluginCredential

  const emu = useEmulator()
  beforeAll(async () => {
    product = await productWithCredential(emu, 'Reseller Reverb')
  })

  const claim = (token: string, body: unknown, query = '') =>
    emu.request('POST', `/api/library/claim${query}`, { token, body })

  it('a customer JWT with `claim` in the body: entitlement and license created, shown in the library, the license activates', async () => {
    const customer = await createCustomer(emu)
    const order = await resellerOrder(emu, product.productId, 'Plugin Boutique')
    const session = await customerSession(emu, customer.id)

    const claimed = await claim(session, { claim: order.claimToken })
    expect(claimed.status, claimed.text).toBe(200)
    expect(claimed.body).toMatchObject({
      ok: true,
      claimed: true,
      already_claimed: false,
      order_item: { id: order.item.id, order_id: order.order.id, product_id: product.productId },
      entitlement: { product_id: product.productId, source: 'reseller_claim', status: 'active' },
      license: { product_id: product.productId }
    })
    expect(Date.parse(claimed.body.order_item.claimed_at)).not.toBeNaN()

    const library = await getLibrary(emu, await libraryTokenOf(emu, customer.id))
    expect(library.body.products.map((p: { product_id: string }) => p.product_id)).toEqual([product.productId])
    expect(library.body.products[0].sources).toEqual(['reseller_claim'])
    expect(library.body.products[0].entitlement_ids).toEqual([claimed.body.entitlement.id])
    expect(library.body.licenses.map((l: { license_key: string }) => l.license_key)).toEqual([
      claimed.body.license.license_key
    ])
    expect(library.body.orders[0]).toMatchObject({
      id: order.order.id,
      channel: 'reseller',
      reseller: 'Plugin Boutique'
    })
    expect(library.body.orders[0].items[0].claimed_at).toBe(claimed.body.order_item.claimed_at)

    const activated = await pluginClient(emu, product).activate(claimed.body.license.license_key, 'claimed-machine')
    expect(activated.status, activated.text).toBe(201)
    expect(activated.body.license.id).toBe(claimed.body.license.id)
  })

  it.each([
    ['`claim_token` in the body', (t: string) => ({ body: { claim_token: t }, query: '' })],
    ['`claim` in the query', (t: string) => ({ body: undefined, query: `?claim=${encodeURIComponent(t)}` })],
    ['`claim_token` in the query', (t: string) => ({ body: undefined, query: `?claim_token=${encodeURIComponent(t)}` })]
  ])('takes the claim token as %s', async (_label, place) => {
    const customer = await createCustomer(emu)
    const order = await resellerOrder(emu, product.productId)
    const { body, query } = place(order.claimToken)
    const claimed = await claim(await customerSession(emu, customer.id), body, query)
    expect(claimed.status, claimed.text).toBe(200)
    expect(claimed.body.already_claimed).toBe(false)
    expect(claimed.body.order_item.id).toBe(order.item.id)
    const library = await getLibrary(emu, await libraryTokenOf(emu, customer.id))
    expect(library.body.licenses.map((l: { id: string }) => l.id)).toEqual([claimed.body.license.id])
  })

  it('the claimUrl the control plane gives works as-is', async () => {
    const created = await emu.control('POST', '/reseller-orders', { productId: product.productId })
    const url = new URL(created.body.claimUrl as string)
    expect(url.pathname).toBe('/api/library/claim')
    const customer = await createCustomer(emu)
    const claimed = await emu.request('POST', url.pathname + url.search, {
      token: await customerSession(emu, customer.id)
    })
    expect(claimed.status, claimed.text).toBe(200)
    expect(claimed.body.order_item.id).toBe(created.body.item.id)
  })

  it('a developer JWT claims for the developer as a user, whose library then shows it', async () => {
    const developer = await emu.createDeveloper()
    const order = await resellerOrder(emu, product.productId)
    const claimed = await claim(developer.token, { claim: order.claimToken })
    expect(claimed.status, claimed.text).toBe(200)
    expect(claimed.body.already_claimed).toBe(false)

    const customers = await emu.control('GET', '/customers')
    const account = customers.body.customers.find((c: { developerId: string | null }) => c.developerId === developer.id)
    expect(account).toBeDefined()
    const library = await getLibrary(emu, await libraryTokenOf(emu, account.id))
    expect(library.body.licenses.map((l: { id: string }) => l.id)).toEqual([claimed.body.license.id])

    // The same developer claiming again lands on the same account: idempotent.
    const again = await claim(developer.token, { claim: order.claimToken })
    expect(again.status).toBe(200)
    expect(again.body.already_claimed).toBe(true)
    expect(again.body.license.id).toBe(claimed.body.license.id)
  })

  it('is idempotent for the same account: already_claimed, the same license, nothing new', async () => {
    const customer = await createCustomer(emu)
    const order = await resellerOrder(emu, product.productId)
    const session = await customerSession(emu, customer.id)
    const first = await claim(session, { claim: order.claimToken })
    expect(first.status).toBe(200)
    const second = await claim(session, { claim_token: order.claimToken })
    expect(second.status, second.text).toBe(200)
    expect(second.body.already_claimed).toBe(true)
    expect(second.body.license).toEqual(first.body.license)
    expect(second.body.entitlement).toEqual(first.body.entitlement)
    expect(second.body.order_item.claimed_at).toBe(first.body.order_item.claimed_at)
    // A fresh session of the same customer is the same account.
    const third = await claim(
      await customerSession(emu, customer.id),
      undefined,
      `?claim=${encodeURIComponent(order.claimToken)}`
    )
    expect(third.body.already_claimed).toBe(true)
    const library = await getLibrary(emu, await libraryTokenOf(emu, customer.id))
    expect(library.body.licenses).toHaveLength(1)
    expect(library.body.products[0].entitlement_ids).toHaveLength(1)
  })

  it('an item claimed by one account cannot be claimed by another: 409 LIBRARY_CLAIM_FAILED, reason ALREADY_CLAIMED', async () => {
    const owner = await createCustomer(emu)
    const thief = await createCustomer(emu)
    const order = await resellerOrder(emu, product.productId)
    expect((await claim(await customerSession(emu, owner.id), { claim: order.claimToken })).status).toBe(200)

    const stolen = await claim(await customerSession(emu, thief.id), { claim: order.claimToken })
    expectError(stolen, 409, 'LIBRARY_CLAIM_FAILED')
    expect(stolen.body.reason).toBe('ALREADY_CLAIMED')
    const thiefLibrary = await getLibrary(emu, await libraryTokenOf(emu, thief.id))
    expect(thiefLibrary.body.products).toEqual([])
    expect(thiefLibrary.body.licenses).toEqual([])
  })

  it('two accounts claiming the same item at once: exactly one wins, the other is 409 ALREADY_CLAIMED', async () => {
    const order = await resellerOrder(emu, product.productId)
    const first = await createCustomer(emu)
    const second = await createCustomer(emu)
    const [a, b] = await Promise.all([
      claim(await customerSession(emu, first.id), { claim: order.claimToken }),
      claim(await customerSession(emu, second.id), { claim: order.claimToken })
    ])
    const results = [a, b]
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    const loser = results.find((r) => r.status === 409)
    expect(loser?.body.reason).toBe('ALREADY_CLAIMED')
    const licenses = [
      (await getLibrary(emu, await libraryTokenOf(emu, first.id))).body.licenses,
      (await getLibrary(emu, await libraryTokenOf(emu, second.id))).body.licenses
    ]
    expect(licenses.map((l) => l.length).sort()).toEqual([0, 1])
  })

  it('an unknown claim token is 400 LIBRARY_CLAIM_FAILED, reason INVALID_CLAIM_TOKEN', async () => {
    const session = await customerSession(emu, (await createCustomer(emu)).id)
    for (const bad of ['clm_doesnotexistdoesnotexist', 'nonsense', '']) {
      const failed = await claim(session, { claim: bad })
      expectError(failed, 400, 'LIBRARY_CLAIM_FAILED')
      expect(failed.body.reason).toBe('INVALID_CLAIM_TOKEN')
    }
    const none = await claim(session, {})
    expectError(none, 400, 'LIBRARY_CLAIM_FAILED')
    expect(none.body.reason).toBe('INVALID_CLAIM_TOKEN')
  })
})
