import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { addFile, createCustomer, getLibrary, libraryTokenOf, purchase } from '../support/commerce'
import type { ProductFile } from '../support/commerce'
import { expectError } from '../support/credentials'
import { startEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// Refunds and chargebacks (issue 26, item 5): QA tests that a refunded purchase stops
// validating and loses its download, through the control plane as a script or the UI does.
describe('refunds and chargebacks', () => {
  let emu: TestEmulator
  beforeAll(async () => {
    emu = await startEmulator()
  })
  afterAll(async () => emu.close())

  async function setUp(name: string): Promise<{ product: PluginCredential; file: ProductFile; customerId: string }> {
    const product = await productWithCredential(emu, name)
    const file = await addFile(emu, product.productId, { sizeBytes: 1024 })
    const customerId = (await createCustomer(emu)).id
    return { product, file, customerId }
  }

  /** What the customer's library says of the product and the order, and what the download answers. */
  async function seen(customerId: string, productId: string, orderId: string, file: ProductFile) {
    const library = await getLibrary(emu, await libraryTokenOf(emu, customerId))
    expect(library.status).toBe(200)
    const listed = library.body.products.find((p: { product_id: string }) => p.product_id === productId)
    const order = library.body.orders.find((o: { id: string }) => o.id === orderId)
    const download = await emu.request(
      'GET',
      `/api/downloads/${file.id}?download_token=${encodeURIComponent(library.body.download_token)}`
    )
    return { entitled: listed?.entitled as boolean, orderStatus: order?.status as string, download }
  }

  it('a refund: the license stops activating and validating, the download goes, the order says refunded', async () => {
    const { product, file, customerId } = await setUp('Refunded Reverb')
    const bought = await purchase(emu, customerId, product.productId)
    const plugin = pluginClient(emu, product)
    expect((await plugin.activate(bought.license.key, 'studio-1')).status).toBe(201)
    expect((await plugin.validate(bought.license.key, 'studio-1')).body.code).toBe('VALID')
    expect((await seen(customerId, product.productId, bought.order.id, file)).download.status).toBe(200)

    const refunded = await emu.control('POST', `/orders/${bought.order.id}/refund`, {})
    expect(refunded.status).toBe(200)
    expect(refunded.body).toMatchObject({ ok: true, changed: true, order: { id: bought.order.id, status: 'refunded' } })
    expect(typeof refunded.body.order.reversedAt).toBe('string')
    expect(refunded.body.licenses).toEqual([expect.objectContaining({ id: bought.license.id, status: 'revoked' })])
    expect(refunded.body.entitlements).toEqual([expect.objectContaining({ id: bought.entitlement.id })])

    const validated = await plugin.validate(bought.license.key, 'studio-1')
    expect(validated.status).toBe(200)
    expect(validated.body).toMatchObject({ valid: false, code: 'REVOKED' })
    expectError(await plugin.activate(bought.license.key, 'studio-2'), 403, 'REVOKED')
    const after = await seen(customerId, product.productId, bought.order.id, file)
    expect(after.entitled).toBe(false)
    expect(after.orderStatus).toBe('refunded')
    expectError(after.download, 403, 'ENTITLEMENT_REQUIRED')

    // Again: nothing changes, and it says so. A chargeback of a refunded order is a conflict.
    const again = await emu.control('POST', `/orders/${bought.order.id}/refund`, {})
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({
      changed: false,
      order: { status: 'refunded', reversedAt: refunded.body.order.reversedAt }
    })
    const conflict = await emu.control('POST', `/orders/${bought.order.id}/chargeback`, {})
    expectError(conflict, 409, 'ORDER_STATE_CONFLICT')
    expect(conflict.body.state).toBe('refunded')
  })

  it('a chargeback of a subscription purchase ends the subscription too', async () => {
    const { product, file, customerId } = await setUp('Charged Chorus')
    const bought = await purchase(emu, customerId, product.productId, { kind: 'subscription' })
    expect(bought.subscription).not.toBeNull()

    const charged = await emu.control('POST', `/orders/${bought.order.id}/chargeback`, {})
    expect(charged.status).toBe(200)
    expect(charged.body.order.status).toBe('chargeback')
    expect(charged.body.subscriptions).toEqual([
      expect.objectContaining({ id: bought.subscription?.id, status: 'canceled' })
    ])

    const subscription = await emu.control('GET', `/subscriptions/${bought.subscription?.id}`)
    expect(subscription.body.standing).toMatchObject({ state: 'canceled', live: false })
    expect((await pluginClient(emu, product).validate(bought.license.key)).body.code).toBe('REVOKED')
    const after = await seen(customerId, product.productId, bought.order.id, file)
    expect(after.orderStatus).toBe('chargeback')
    expectError(after.download, 403, 'ENTITLEMENT_REQUIRED')
    expectError(await emu.control('POST', `/orders/${bought.order.id}/refund`, {}), 409, 'ORDER_STATE_CONFLICT')
  })

  it('another purchase of the product keeps it downloadable, and its license valid', async () => {
    const { product, file, customerId } = await setUp('Twice Bought')
    const first = await purchase(emu, customerId, product.productId)
    const second = await purchase(emu, customerId, product.productId)
    expect((await emu.control('POST', `/orders/${first.order.id}/refund`, {})).status).toBe(200)
    const after = await seen(customerId, product.productId, second.order.id, file)
    expect(after.entitled).toBe(true)
    expect(after.download.status).toBe(200)
    expect((await pluginClient(emu, product).validate(second.license.key)).body.code).toBe('VALID')
  })

  it('refuses an unknown order and a body it does not take, changing nothing', async () => {
    expectError(await emu.control('POST', '/orders/ord_missing/refund', {}), 404, 'ORDER_NOT_FOUND')
    expectError(await emu.control('POST', '/orders/ord_missing/chargeback', {}), 404, 'ORDER_NOT_FOUND')
    const { product, customerId } = await setUp('Strict Strings')
    const bought = await purchase(emu, customerId, product.productId)
    expectError(await emu.control('POST', `/orders/${bought.order.id}/refund`, { amount: 5 }), 400, 'VALIDATION_ERROR')
    expect((await pluginClient(emu, product).validate(bought.license.key)).body.code).toBe('VALID')
  })

  it('a scenario carries the reversal: export, import and export again give the same orders', async () => {
    const { product, customerId } = await setUp('Exported Echo')
    const bought = await purchase(emu, customerId, product.productId)
    await emu.control('POST', `/orders/${bought.order.id}/chargeback`, {})
    const exported = await emu.control('GET', '/state')
    const order = (exported.body.state.orders as Array<Record<string, unknown>>).find((o) => o.id === bought.order.id)
    expect(order).toMatchObject({ status: 'chargeback', reversedAt: expect.any(String) })
    expect((await emu.control('PUT', '/state', exported.body.state)).status).toBe(200)
    const again = await emu.control('GET', '/state')
    expect(JSON.stringify(again.body.state.orders)).toBe(JSON.stringify(exported.body.state.orders))
    expect((await pluginClient(emu, product).validate(bought.license.key)).body.code).toBe('REVOKED')
  })
})

describe('a reversed reseller order', () => {
  let emu: TestEmulator
  beforeAll(async () => {
    emu = await startEmulator()
  })
  afterAll(async () => emu.close())

  it('refunded before it was claimed, its claim token claims nothing', async () => {
    const product = await productWithCredential(emu, 'Resold Reverb')
    const order = await emu.control('POST', '/reseller-orders', { productId: product.productId })
    expect(order.status).toBe(201)
    expect((await emu.control('POST', `/orders/${order.body.order.id}/refund`, {})).status).toBe(200)
    const customer = await createCustomer(emu)
    const session = await emu.control('POST', `/customers/${customer.id}/session`, {})
    const claimed = await emu.request('POST', '/api/library/claim', {
      token: session.body.token,
      body: { claim: order.body.claimToken }
    })
    expectError(claimed, 400, 'LIBRARY_CLAIM_FAILED')
    expect(claimed.body.message).toContain('refunded')
    const licenses = await emu.control('GET', `/licenses?customerId=${customer.id}`)
    expect(licenses.body.licenses).toEqual([])
  })
})
