import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { PRESET_CLAIM_TOKEN } from '../../src/core/scenarios/presets'
import { createCustomer, customerSession, resellerOrder } from '../support/commerce'
import { databaseFileBytes, withReadOnlyDatabase } from '../support/database'
import { startEmulator, useEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { makeTempDir } from '../support/temp-dir'

// docs/api.md section 6: GET /_emulator/reseller-orders lists the reseller orders waiting for
// their claim with their claim links, after a restart and after a scenario import too; the claim
// token is kept sealed under the runtime key, never in plain, a log, the inspector or an export.

interface Pending {
  order: { id: string; reseller: string | null; customerId: string | null; createdAt: string }
  item: { id: string; productId: string; claimedAt: string | null }
  productName: string | null
  claimToken: string | null
  claimUrl: string | null
  unrecoverableReason: string | null
}

async function pending(emu: TestEmulator): Promise<Pending[]> {
  const listed = await emu.control<{ orders: Pending[] }>('GET', '/reseller-orders')
  expect(listed.status, listed.text).toBe(200)
  return listed.body.orders
}

/** What the claim link's page says about it (the page never repeats the token). */
async function claimPageState(emu: TestEmulator, claimUrl: string): Promise<string | undefined> {
  const page = await fetch(claimUrl)
  return /data-claim-state="([a-z]+)"/.exec(await page.text())?.[1]
}

async function claimWith(emu: TestEmulator, claimToken: string) {
  const customer = await createCustomer(emu)
  const session = await customerSession(emu, customer.id)
  return emu.request('POST', '/api/library/claim', { token: session, body: { claim: claimToken } })
}

const tokenOf = (claimUrl: string) => new URL(claimUrl).searchParams.get('claim') as string

async function productOf(emu: TestEmulator): Promise<string> {
  const developer = await emu.createDeveloper()
  return (await emu.createProduct(developer.id, 'Reseller Reverb')).id
}

describe('pending reseller orders and their claim links', () => {
  const emu = useEmulator()

  it('lists a new order with the link it was created with; the link claims; claimed, it is no longer listed', async () => {
    const productId = await productOf(emu)
    const created = await emu.control('POST', '/reseller-orders', { productId, reseller: 'Plugin Boutique' })
    expect(created.status).toBe(201)
    const [first] = await pending(emu)
    expect(first).toMatchObject({
      order: { id: created.body.order.id, reseller: 'Plugin Boutique', customerId: null },
      item: { productId, claimedAt: null },
      productName: 'Reseller Reverb',
      claimToken: created.body.claimToken,
      claimUrl: created.body.claimUrl,
      unrecoverableReason: null
    })
    expect(first?.claimUrl).toBe(`${emu.baseUrl}/api/library/claim?claim=${created.body.claimToken as string}`)
    expect(await claimPageState(emu, first?.claimUrl as string)).toBe('claimable')

    const claimed = await claimWith(emu, tokenOf(first?.claimUrl as string))
    expect(claimed.status, claimed.text).toBe(200)
    expect((await pending(emu)).map((entry) => entry.order.id)).not.toContain(created.body.order.id)
  })

  it('leaves out refunded orders and direct purchases, newest first', async () => {
    const productId = await productOf(emu)
    const older = await resellerOrder(emu, productId, 'Older Store')
    const refunded = await resellerOrder(emu, productId, 'Refunded Store')
    const newer = await resellerOrder(emu, productId, 'Newer Store')
    expect((await emu.control('POST', `/orders/${refunded.order.id as string}/refund`, {})).status).toBe(200)
    const ids = (await pending(emu)).map((entry) => entry.order.id)
    expect(ids).not.toContain(refunded.order.id)
    expect(ids.indexOf(newer.order.id as string)).toBeLessThan(ids.indexOf(older.order.id as string))
  })

  it('lists the preset reseller order with its documented claim token', async () => {
    expect((await emu.control('POST', '/presets/reseller-claim', {})).status).toBe(200)
    const [only, ...rest] = await pending(emu)
    expect(rest).toEqual([])
    expect(only?.claimToken).toBe(PRESET_CLAIM_TOKEN)
    expect(await claimPageState(emu, only?.claimUrl as string)).toBe('claimable')
  })
})

describe('after a restart on the same database file', () => {
  const dir = makeTempDir('reseller-restart')
  afterAll(() => dir.remove())

  it('lists the order with a working link under the same runtime key, none under another or none', async () => {
    const databasePath = join(dir.path, 'emulator.db')
    const runtimeKey = randomBytes(32)
    let emu = await startEmulator({ databasePath, runtimeKey })
    let created: Awaited<ReturnType<typeof resellerOrder>>
    try {
      created = await resellerOrder(emu, await productOf(emu))
    } finally {
      await emu.close()
    }

    emu = await startEmulator({ databasePath, runtimeKey: randomBytes(32) })
    try {
      const [entry] = await pending(emu)
      expect(entry).toMatchObject({ claimToken: null, claimUrl: null, unrecoverableReason: 'other-runtime-key' })
    } finally {
      await emu.close()
    }
    emu = await startEmulator({ databasePath, runtimeKey: null })
    try {
      expect((await pending(emu))[0]).toMatchObject({ claimUrl: null, unrecoverableReason: 'no-runtime-key' })
    } finally {
      await emu.close()
    }

    emu = await startEmulator({ databasePath, runtimeKey })
    try {
      const [entry] = await pending(emu)
      expect(entry?.order.id).toBe(created.order.id)
      expect(entry?.claimUrl).toBe(`${emu.baseUrl}/api/library/claim?claim=${created.claimToken}`)
      expect(await claimPageState(emu, entry?.claimUrl as string)).toBe('claimable')
      const claimed = await claimWith(emu, tokenOf(entry?.claimUrl as string))
      expect(claimed.status, claimed.text).toBe(200)
      expect(await pending(emu)).toEqual([])
    } finally {
      await emu.close()
    }
  })
})

describe('scenario export and import', () => {
  const emu = useEmulator()
  // Every test here builds its order on a product of the exported state: one exists whichever runs alone.
  beforeAll(async () => {
    await productOf(emu)
  })

  it('carries a pending order sealed: after reset and import it is listed with the same working link', async () => {
    const created = await resellerOrder(emu, await productOf(emu))
    const exported = await emu.control('GET', '/state')
    expect(exported.status).toBe(200)
    const item = (exported.body.state.orderItems as Record<string, unknown>[]).find((row) => row.id === created.item.id)
    expect(item?.sealedClaimToken).toMatch(/^v1:/)
    expect((await emu.control('POST', '/reset', {})).status).toBe(200)
    expect(await pending(emu)).toEqual([])

    const imported = await emu.control('PUT', '/state', exported.body.state)
    expect(imported.status, imported.text).toBe(200)
    const [entry] = await pending(emu)
    expect(entry?.claimToken).toBe(created.claimToken)
    expect(await claimPageState(emu, entry?.claimUrl as string)).toBe('claimable')
    expect((await claimWith(emu, tokenOf(entry?.claimUrl as string))).status).toBe(200)
    expect(await pending(emu)).toEqual([])
  })

  it('takes a plain claimToken in a hand-written scenario (kept as its hash and a sealed copy)', async () => {
    const exported = (await emu.control('GET', '/state')).body.state
    const claimToken = `clm_${'Authored'.repeat(3)}`
    const document = withPendingOrder(exported, { claimToken })
    const imported = await emu.control('PUT', '/state', document)
    expect(imported.status, imported.text).toBe(200)
    const [entry] = await pending(emu)
    expect(entry).toMatchObject({ claimToken, order: { id: 'ord_authored' } })
    const again = (await emu.control('GET', '/state')).text
    expect(again).not.toContain(claimToken)
    expect(again).toContain('"sealedClaimToken":"v1:')
  })

  it.each([
    ['claimToken', { claimToken: 'clm_Authored-Token-Cut' }, '/orderItems/0/claimToken'],
    [
      'sealedClaimToken',
      { claimTokenHash: 'a'.repeat(64), sealedClaimToken: 'not sealed' },
      '/orderItems/0/sealedClaimToken'
    ],
    [
      'claimTokenHash of another token',
      { claimToken: `clm_${'Authored'.repeat(3)}`, claimTokenHash: 'b'.repeat(64) },
      '/orderItems/0/claimTokenHash'
    ]
  ])('refuses a bad %s with a 400 naming its path, changing nothing', async (_name, fields, path) => {
    const before = await pending(emu)
    const refused = await emu.control(
      'PUT',
      '/state',
      withPendingOrder((await emu.control('GET', '/state')).body.state, fields)
    )
    expect(refused.status, refused.text).toBe(400)
    expect(refused.body).toMatchObject({ ok: false, error: 'VALIDATION_ERROR', path })
    expect(refused.text).not.toContain('Authored')
    expect(await pending(emu)).toEqual(before)
  })
})

/** `document` with its orders replaced by one pending reseller order whose item has `fields`. */
function withPendingOrder(document: Record<string, any>, fields: Record<string, unknown>): Record<string, any> {
  const productId = (document.products as { id: string }[])[0]?.id
  return {
    ...document,
    entitlements: [],
    licenses: [],
    activations: [],
    subscriptions: [],
    orders: [
      {
        id: 'ord_authored',
        customerId: null,
        channel: 'reseller',
        reseller: 'Authored Store',
        totalCents: 4900,
        createdAt: '2026-01-02T00:00:00Z'
      }
    ],
    orderItems: [
      { id: 'item_authored', orderId: 'ord_authored', productId, kind: 'perpetual', unitPriceCents: 4900, ...fields }
    ]
  }
}

describe('the claim token stays out of the log, the inspector, an export and the database in plain', () => {
  const emu = useEmulator()

  it('is found only sealed', async () => {
    const created = await resellerOrder(emu, await productOf(emu))
    const token = created.claimToken
    const [entry] = await pending(emu)
    expect(entry?.claimToken).toBe(token)
    // What a customer does with the link: opens it, then claims (a failed claim first).
    await fetch(entry?.claimUrl as string)
    const customer = await createCustomer(emu)
    const session = await customerSession(emu, customer.id)
    await emu.request('POST', '/api/library/claim', { token: session, body: { claim: `${token}x` } })
    await emu.request('POST', `/api/library/claim?claim_token=${token}`, { token: session })

    expect(emu.logOutput()).not.toContain(token)
    const summaries = (await emu.control('GET', '/requests?limit=500')).body.requests as { id: number }[]
    expect(summaries.length).toBeGreaterThanOrEqual(3)
    for (const summary of summaries) {
      const detail = await emu.control('GET', `/requests/${summary.id}`)
      expect(detail.text).not.toContain(token)
    }
    expect((await emu.control('GET', '/requests/har?limit=500')).text).not.toContain(token)
    expect((await emu.control('GET', '/state?includeRequests=1')).text).not.toContain(token)
    const stored = withReadOnlyDatabase(emu.databasePath, (db) =>
      db.prepare('SELECT sealed_claim_token FROM order_items WHERE id = ?').pluck().get(created.item.id)
    )
    expect(stored).toMatch(/^v1:/)
    expect(databaseFileBytes(emu.databasePath).includes(Buffer.from(token))).toBe(false)
  })
})
