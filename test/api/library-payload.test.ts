import { beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { addFile, createCustomer, DAY_MS, getLibrary, libraryTokenOf, localPath, purchase } from '../support/commerce'
import type { Purchase, TestCustomer } from '../support/commerce'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// The library payload groups of docs/api.md section 4, for a customer with a
// perpetual, a subscription and a trial purchase. The clock is frozen, so every date is exact.
describe('GET /api/library: every payload group', () => {
  const base = Date.parse('2032-06-01T10:00:00.000Z')
  const clock = createClock(() => base)
  let customer: TestCustomer
  let perpetualProduct: PluginCredential
  let subscriptionProduct: PluginCredential
  let trialProduct: PluginCredential
  let perpetual: Purchase
  let subscription: Purchase
  let trial: Purchase
  let body: Record<string, any>

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    perpetualProduct = await productWithCredential(emu, 'Perpetual Piano')
    subscriptionProduct = await productWithCredential(emu, 'Subscription Strings')
    trialProduct = await productWithCredential(emu, 'Trial Timpani')
    await addFile(emu, perpetualProduct.productId, { version: '2.0.0', platform: 'windows', sizeBytes: 5000 })
    await addFile(emu, perpetualProduct.productId, { version: '2.0.0', platform: 'macos', sizeBytes: 6000 })
    customer = await createCustomer(emu, { name: 'Carla', email: 'carla@example.test' })
    perpetual = await purchase(emu, customer.id, perpetualProduct.productId, { maxActivations: 3 })
    subscription = await purchase(emu, customer.id, subscriptionProduct.productId, { kind: 'subscription' })
    trial = await purchase(emu, customer.id, trialProduct.productId, { kind: 'trial' })
    const plugin = pluginClient(emu, perpetualProduct)
    expect(
      (await plugin.activate(perpetual.license.key, 'machine-1', { instance_name: 'Studio', platform: 'windows' }))
        .status
    ).toBe(201)
    expect((await plugin.activate(perpetual.license.key, 'machine-2')).status).toBe(201)
    const library = await getLibrary(emu, await libraryTokenOf(emu, customer.id))
    expect(library.status, library.text).toBe(200)
    body = library.body
  })

  it('has exactly the top-level groups of the contract', () => {
    expect(Object.keys(body).sort()).toEqual(
      [
        'ok',
        'products',
        'subscriptions',
        'licenses',
        'orders',
        'marketing_preferences',
        'profile',
        'support',
        'download_token'
      ].sort()
    )
    expect(body.ok).toBe(true)
  })

  it('products: one per entitled product, with entitlement-gated download links', () => {
    expect(body.products.map((p: { name: string }) => p.name).sort()).toEqual([
      'Perpetual Piano',
      'Subscription Strings',
      'Trial Timpani'
    ])
    const piano = body.products.find((p: { product_id: string }) => p.product_id === perpetualProduct.productId)
    expect(piano.sources).toEqual(['purchase'])
    expect(piano.entitlement_ids).toEqual([perpetual.entitlement.id])
    expect(piano.license_ids).toEqual([perpetual.license.id])
    expect(piano.version).toBe('2.0.0')
    expect(piano.downloads).toHaveLength(2)
    expect(piano.downloads.map((d: { platform: string }) => d.platform).sort()).toEqual(['macos', 'windows'])
    for (const link of piano.downloads) {
      const path = localPath(link.url)
      expect(path).toMatch(new RegExp(`^/api/downloads/${link.file_id}\\?download_token=`))
      expect(new URL(link.url).searchParams.get('download_token')).toBe(body.download_token)
    }
    expect(piano.downloads.find((d: { platform: string }) => d.platform === 'windows').size_bytes).toBe(5000)
    const strings = body.products.find((p: { product_id: string }) => p.product_id === subscriptionProduct.productId)
    expect(strings.sources).toEqual(['subscription'])
    expect(strings.downloads).toEqual([])
    const timpani = body.products.find((p: { product_id: string }) => p.product_id === trialProduct.productId)
    expect(timpani.sources).toEqual(['trial'])
  })

  it('subscriptions: the subscription, renewing at the end of its 30-day period', () => {
    expect(body.subscriptions).toHaveLength(1)
    const [sub] = body.subscriptions
    const periodEnd = new Date(base + 30 * DAY_MS).toISOString()
    expect(sub).toMatchObject({
      id: subscription.subscription?.id,
      product_id: subscriptionProduct.productId,
      product_name: 'Subscription Strings',
      plan: 'monthly',
      status: 'active',
      current_period_end: periodEnd,
      renews_at: periodEnd,
      cancel_at_period_end: false
    })
  })

  it('licenses: every kind, with keys, expiry and activation counts', () => {
    expect(body.licenses).toHaveLength(3)
    const byId = (id: string) => body.licenses.find((l: { id: string }) => l.id === id)
    expect(byId(perpetual.license.id)).toMatchObject({
      license_key: perpetual.license.key,
      product_name: 'Perpetual Piano',
      kind: 'perpetual',
      status: 'active',
      state: 'VALID',
      expires_at: null,
      max_activations: 3,
      activation_count: 2,
      activations_remaining: 1
    })
    const activations = byId(perpetual.license.id).activations
    expect(activations.map((a: { instance_id: string }) => a.instance_id)).toEqual(['machine-1', 'machine-2'])
    expect(activations[0]).toMatchObject({
      instance_name: 'Studio',
      platform: 'windows',
      first_seen_at: new Date(base).toISOString()
    })
    expect(byId(subscription.license.id)).toMatchObject({
      kind: 'subscription',
      state: 'VALID',
      expires_at: new Date(base + 30 * DAY_MS).toISOString(),
      activation_count: 0,
      activations_remaining: 2
    })
    expect(byId(trial.license.id)).toMatchObject({
      kind: 'trial',
      state: 'VALID',
      expires_at: new Date(base + 14 * DAY_MS).toISOString(),
      activation_count: 0
    })
  })

  it('orders: one per purchase, each with its items', () => {
    expect(body.orders).toHaveLength(3)
    const ids = body.orders.map((o: { id: string }) => o.id).sort()
    expect(ids).toEqual([perpetual.order.id, subscription.order.id, trial.order.id].sort())
    const pianoOrder = body.orders.find((o: { id: string }) => o.id === perpetual.order.id)
    expect(pianoOrder).toMatchObject({
      channel: 'direct',
      status: 'paid',
      currency: 'USD',
      total_cents: 9900,
      created_at: new Date(base).toISOString()
    })
    expect(pianoOrder.items).toEqual([
      expect.objectContaining({
        id: perpetual.item.id,
        product_id: perpetualProduct.productId,
        product_name: 'Perpetual Piano',
        kind: 'perpetual',
        unit_price_cents: 9900
      })
    ])
    const trialOrder = body.orders.find((o: { id: string }) => o.id === trial.order.id)
    expect(trialOrder.items[0]).toMatchObject({ kind: 'trial', unit_price_cents: 0 })
  })

  it('marketing_preferences, profile and support describe the customer', () => {
    expect(body.marketing_preferences).toEqual({
      newsletter: false,
      product_updates: true,
      updated_at: new Date(base).toISOString()
    })
    expect(body.profile).toMatchObject({
      customer_id: customer.id,
      user_id: customer.userId,
      email: 'carla@example.test',
      name: 'Carla'
    })
    expect(body.support.customer_reference).toBe(customer.id)
    expect(body.support.contact_email).toMatch(/@/)
    expect(body.support.product_contacts.map((c: { product_name: string }) => c.product_name).sort()).toEqual([
      'Perpetual Piano',
      'Subscription Strings',
      'Trial Timpani'
    ])
  })

  it('download_token: a token that opens the download links', async () => {
    expect(typeof body.download_token).toBe('string')
    const piano = body.products.find((p: { product_id: string }) => p.product_id === perpetualProduct.productId)
    const download = await emu.request('GET', localPath(piano.downloads[0].url))
    expect(download.status).toBe(200)
    expect(download.headers.get('content-length')).toBe(String(piano.downloads[0].size_bytes))
  })

  it('follows the emulator clock: past the period the subscription renews, and the trial ends', async () => {
    clock.setOffsetMs(31 * DAY_MS)
    try {
      const later = await getLibrary(emu, await libraryTokenOf(emu, customer.id))
      expect(later.status).toBe(200)
      const renewed = new Date(
        Date.parse(subscription.subscription?.currentPeriodEnd as string) + 30 * DAY_MS
      ).toISOString()
      expect(later.body.subscriptions[0]).toMatchObject({
        status: 'active',
        renews_at: renewed,
        current_period_end: renewed
      })
      const state = (id: string) => later.body.licenses.find((l: { id: string }) => l.id === id).state
      expect(state(perpetual.license.id)).toBe('VALID')
      expect(state(subscription.license.id)).toBe('VALID')
      expect(state(trial.license.id)).toBe('TRIAL_EXPIRED')
    } finally {
      clock.setOffsetMs(0)
    }
  })

  it('a customer with nothing bought still gets every group, empty', async () => {
    const newcomer = await createCustomer(emu)
    const empty = await getLibrary(emu, await libraryTokenOf(emu, newcomer.id))
    expect(empty.status).toBe(200)
    expect(empty.body).toMatchObject({ ok: true, products: [], subscriptions: [], licenses: [], orders: [] })
    expect(empty.body.profile.customer_id).toBe(newcomer.id)
    expect(empty.body.support.product_contacts).toEqual([])
    expect(typeof empty.body.download_token).toBe('string')
  })
})
