import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { createEmulatorCore } from '../../src/core/emulator-core'
import type { EmulatorCore } from '../../src/core/emulator-core'
import { createLibraryRepository } from '../../src/core/library/library-repository'
import { createLibraryView } from '../../src/core/library/library-view'
import type { LibraryQuery, LibraryView } from '../../src/core/library/library-view'
import type { ScenarioDocument, ScenarioRow } from '../../src/core/scenarios/scenario-schema'
import { openStore } from '../../src/core/store/store'
import type { Store } from '../../src/core/store/store'
import { libraryLinks } from '../../src/server/http/library-links'
import { makeTempDir } from '../support/temp-dir'

// The library reads its rows as column arrays and groups them in single passes (for speed on
// 1,000-item libraries); these pin what that must keep: the orders, filters and tie-breaks of
// each group, and the wire format's field order (the route serializes with JSON.stringify).
const NOW = Date.parse('2030-06-01T12:00:00.000Z')
const at = (days: number) => new Date(NOW + days * 86_400_000).toISOString()
const BASE_URL = 'http://127.0.0.1:4747'
const TOKEN = 'tok.en+/='

function scenario(): ScenarioDocument {
  const product = (
    id: string,
    name: string,
    storefrontSlug: string | null,
    supportEmail: string | null = null
  ): ScenarioRow => ({
    id,
    developerId: 'dev',
    name,
    appId: `app_${id}`,
    storefrontSlug,
    supportEmail,
    createdAt: at(-100)
  })
  const file = (id: string, productId: string, version: string, createdAt: string): ScenarioRow => ({
    id,
    productId,
    version,
    platform: 'windows',
    filename: `${id}.exe`,
    sizeBytes: 10,
    createdAt
  })
  const order = (id: string, storefrontSlug: string | null, createdAt: string): ScenarioRow => ({
    id,
    customerId: 'cus',
    channel: 'direct',
    storefrontSlug,
    currency: 'USD',
    totalCents: 100,
    createdAt
  })
  const item = (id: string, orderId: string, productId: string): ScenarioRow => ({
    id,
    orderId,
    productId,
    kind: 'perpetual',
    unitPriceCents: 50
  })
  const entitlement = (
    id: string,
    productId: string,
    source: string,
    status: string,
    createdAt: string
  ): ScenarioRow => ({
    id,
    customerId: 'cus',
    productId,
    source,
    status,
    createdAt
  })
  const license = (id: string, productId: string, extra: ScenarioRow = {}): ScenarioRow => ({
    id,
    key: `KEY-${id}`,
    customerId: 'cus',
    productId,
    kind: 'perpetual',
    maxActivations: 2,
    createdAt: at(-10),
    ...extra
  })
  const activation = (
    id: string,
    licenseId: string,
    instanceId: string,
    firstSeenAt: string,
    deactivatedAt: string | null = null
  ): ScenarioRow => ({
    id,
    licenseId,
    instanceId,
    firstSeenAt,
    lastSeenAt: firstSeenAt,
    deactivatedAt
  })
  return {
    format: 'plugin-license-emulator/scenario',
    version: 1,
    developers: [{ id: 'dev', email: 'dev@example.test', role: 'developer', createdAt: at(-100) }],
    products: [
      product('p_alpha', 'Alpha', 'north', 'help@alpha.test'),
      product('p_beta', 'Beta', 'south'),
      product('p_gamma', 'Gamma', null),
      product('p_revoked', 'Revoked', null),
      product('p_bought_only', 'Bought Only', null)
    ],
    customers: [{ id: 'cus', userId: 'user_cus', email: 'cus@example.test', name: 'Cus', createdAt: at(-90) }],
    marketingPreferences: [{ customerId: 'cus', updatedAt: at(-90) }],
    files: [
      file('f_alpha_old', 'p_alpha', '1.0', at(-30)),
      file('f_alpha_new_a', 'p_alpha', '2.0', at(-20)),
      file('f alpha/new?b', 'p_alpha', '2.0', at(-20)),
      file('f_revoked', 'p_revoked', '1.0', at(-30))
    ],
    orders: [
      order('o_old', 'north', at(-30)),
      order('o_tie_first', null, at(-20)),
      order('o_tie_second', 'south', at(-20)),
      order('o_empty', null, at(-5))
    ],
    orderItems: [
      item('i_alpha', 'o_old', 'p_alpha'),
      item('i_bought', 'o_old', 'p_bought_only'),
      item('i_beta', 'o_tie_first', 'p_beta'),
      item('i_gamma', 'o_tie_second', 'p_gamma'),
      item('i_alpha_again', 'o_tie_second', 'p_alpha')
    ],
    subscriptions: [
      {
        id: 's_beta',
        customerId: 'cus',
        productId: 'p_beta',
        plan: 'monthly',
        status: 'active',
        currentPeriodEnd: at(-1),
        cancelAtPeriodEnd: true,
        canceledAt: at(-10),
        createdAt: at(-40)
      }
    ],
    entitlements: [
      entitlement('e_beta', 'p_beta', 'subscription', 'active', at(-40)),
      entitlement('e_alpha_1', 'p_alpha', 'purchase', 'active', at(-30)),
      entitlement('e_revoked', 'p_revoked', 'purchase', 'revoked', at(-30)),
      entitlement('e_alpha_2', 'p_alpha', 'trial', 'active', at(-25)),
      entitlement('e_alpha_3', 'p_alpha', 'purchase', 'active', at(-24)),
      entitlement('e_gamma', 'p_gamma', 'purchase', 'active', at(-20))
    ],
    licenses: [
      license('l_alpha', 'p_alpha'),
      license('l_beta', 'p_beta', { kind: 'subscription', subscriptionId: 's_beta', expiresAt: at(100) }),
      license('l_revoked_product', 'p_revoked'),
      license('l_trial', 'p_gamma', { kind: 'trial', expiresAt: at(-2) })
    ],
    activations: [
      activation('a_late', 'l_alpha', 'machine-late', at(-3)),
      activation('a_early', 'l_alpha', 'machine-early', at(-8)),
      activation('a_gone', 'l_alpha', 'machine-gone', at(-9), at(-4))
    ]
  }
}

describe('the library view over its column-array reads', () => {
  let dir: ReturnType<typeof makeTempDir>
  let store: Store
  let core: EmulatorCore
  let view: LibraryView

  beforeAll(async () => {
    dir = makeTempDir('library-view')
    store = openStore({ path: join(dir.path, 'emulator.db') })
    const clock = createClock(() => NOW)
    core = await createEmulatorCore({ store, clock, runtimeKey: null, apiBaseUrl: () => BASE_URL })
    core.state.import(scenario())
    view = createLibraryView({
      clock,
      customers: core.customers,
      queries: createLibraryRepository(store),
      grace: core.grace
    })
  })
  afterAll(() => {
    core.requests.close()
    store.close()
    dir.remove()
  })

  const build = (query: Partial<LibraryQuery> = {}) =>
    view.build(core.customers.require('cus'), { links: libraryLinks(BASE_URL), downloadToken: TOKEN, ...query })

  it('keeps the field order of every group (the bytes of the response)', () => {
    const library = build({ instanceId: 'machine-early' })
    expect(Object.keys(library)).toEqual([
      'products',
      'subscriptions',
      'licenses',
      'orders',
      'marketing_preferences',
      'profile',
      'support',
      'download_token'
    ])
    expect(Object.keys(library.products[0] ?? {})).toEqual([
      'product_id',
      'name',
      'version',
      'storefront_slug',
      'sources',
      'entitlement_ids',
      'acquired_at',
      'entitled',
      'downloads',
      'license_ids',
      'activated_on_this_device'
    ])
    expect(Object.keys(library.products[1]?.downloads[0] ?? {})).toEqual([
      'file_id',
      'version',
      'platform',
      'filename',
      'size_bytes',
      'url'
    ])
    expect(Object.keys(library.licenses[0] ?? {})).toEqual([
      'id',
      'license_key',
      'product_id',
      'product_name',
      'kind',
      'status',
      'state',
      'expires_at',
      'max_activations',
      'activation_count',
      'activations_remaining',
      'activations',
      'activated_on_this_device'
    ])
    expect(Object.keys(library.licenses[0]?.activations[0] ?? {})).toEqual([
      'id',
      'instance_id',
      'instance_name',
      'platform',
      'app_version',
      'first_seen_at',
      'last_seen_at'
    ])
    expect(Object.keys(library.subscriptions[0] ?? {})).toEqual([
      'id',
      'product_id',
      'product_name',
      'plan',
      'status',
      'current_period_end',
      'renews_at',
      'cancel_at_period_end',
      'canceled_at',
      'grace_until',
      'ended_at'
    ])
    expect(Object.keys(library.orders[0] ?? {})).toEqual([
      'id',
      'created_at',
      'channel',
      'reseller',
      'storefront_slug',
      'status',
      'currency',
      'total_cents',
      'items'
    ])
    expect(Object.keys(library.orders[0]?.items[0] ?? {})).toEqual([
      'id',
      'product_id',
      'product_name',
      'kind',
      'unit_price_cents',
      'claimed_at'
    ])
    expect(Object.keys(library.support.product_contacts[0] ?? {})).toEqual(['product_id', 'product_name', 'email'])
  })

  it('products: by first active entitlement, sources once each in order, revoked entitlements left out', () => {
    const { products } = build()
    expect(products.map((p) => p.product_id)).toEqual(['p_beta', 'p_alpha', 'p_gamma'])
    const alpha = products[1]
    expect(alpha?.sources).toEqual(['purchase', 'trial'])
    expect(alpha?.entitlement_ids).toEqual(['e_alpha_1', 'e_alpha_2', 'e_alpha_3'])
    expect(alpha?.acquired_at).toBe(at(-30))
    expect(alpha?.license_ids).toEqual(['l_alpha'])
    expect(alpha?.activated_on_this_device).toBeNull()
  })

  it('downloads: newest first, the later of two equally new files first, links encoded once per page', () => {
    const alpha = build().products.find((p) => p.product_id === 'p_alpha')
    expect(alpha?.version).toBe('2.0')
    expect(alpha?.downloads.map((d) => d.file_id)).toEqual(['f alpha/new?b', 'f_alpha_new_a', 'f_alpha_old'])
    expect(alpha?.downloads[0]?.url).toBe(
      `${BASE_URL}/api/downloads/f%20alpha%2Fnew%3Fb?download_token=tok.en%2B%2F%3D`
    )
    expect(build().products.find((p) => p.product_id === 'p_beta')?.downloads).toEqual([])
  })

  it('licenses: every license of a product in scope, live activations oldest first, judged at the clock', () => {
    const { licenses } = build({ instanceId: 'machine-early' })
    expect(licenses.map((l) => l.id)).toEqual(['l_alpha', 'l_beta', 'l_revoked_product', 'l_trial'])
    const [alpha, beta, , trial] = licenses
    expect(alpha?.activations.map((a) => a.id)).toEqual(['a_early', 'a_late'])
    expect(alpha).toMatchObject({
      activation_count: 2,
      activations_remaining: 0,
      activated_on_this_device: true,
      state: 'VALID'
    })
    // A subscription license lasts as long as its subscription grants access: this one was cancelled and its period ended.
    expect(beta).toMatchObject({
      expires_at: at(-1),
      state: 'EXPIRED',
      activations: [],
      activated_on_this_device: false
    })
    expect(trial).toMatchObject({ state: 'TRIAL_EXPIRED', product_name: 'Gamma' })
    expect(
      build({ instanceId: 'machine-early' }).products.find((p) => p.product_id === 'p_alpha')?.activated_on_this_device
    ).toBe(true)
  })

  it('orders: newest first (the later of a tie first), items in the order added, none without items', () => {
    const { orders } = build()
    expect(orders.map((o) => o.id)).toEqual(['o_tie_second', 'o_tie_first', 'o_old'])
    expect(orders[0]?.items.map((i) => i.id)).toEqual(['i_gamma', 'i_alpha_again'])
    // An item names its product even when the customer holds no entitlement to it.
    expect(orders[2]?.items.map((i) => i.product_name)).toEqual(['Alpha', 'Bought Only'])
  })

  it('one product: its licenses, its subscription, and only the orders with an item of it', () => {
    const library = build({ productId: 'p_alpha' })
    expect(library.products.map((p) => p.product_id)).toEqual(['p_alpha'])
    expect(library.licenses.map((l) => l.id)).toEqual(['l_alpha'])
    expect(library.subscriptions).toEqual([])
    expect(library.orders.map((o) => [o.id, o.items.map((i) => i.id)])).toEqual([
      ['o_tie_second', ['i_alpha_again']],
      ['o_old', ['i_alpha']]
    ])
  })

  it("a storefront: products by the product's storefront, orders by the order's", () => {
    const library = build({ storefront: 'south' })
    expect(library.products.map((p) => p.product_id)).toEqual(['p_beta'])
    expect(library.subscriptions.map((s) => [s.id, s.status, s.renews_at])).toEqual([['s_beta', 'canceled', null]])
    expect(library.licenses.map((l) => l.id)).toEqual(['l_beta'])
    expect(library.orders.map((o) => o.id)).toEqual(['o_tie_second'])
    expect(library.support.product_contacts).toEqual([
      { product_id: 'p_beta', product_name: 'Beta', email: 'support+south@plugin-license-emulator.test' }
    ])
  })

  it('support contacts: one per owned product, its own address first', () => {
    expect(build().support.product_contacts.map((c) => c.email)).toEqual([
      'support+south@plugin-license-emulator.test',
      'help@alpha.test',
      'support+p_gamma@plugin-license-emulator.test'
    ])
  })
})
