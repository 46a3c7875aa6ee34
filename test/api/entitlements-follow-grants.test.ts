import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import {
  addFile,
  createCustomer,
  customerSession,
  DAY_MS,
  getLibrary,
  libraryTokenOf,
  purchase,
  resellerOrder
} from '../support/commerce'
import type { ProductFile, PurchaseKind } from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// Entitlements follow what grants them: a revoked, refunded or expired license and a trial past
// its end stop granting downloads (no links in the library, 403 ENTITLEMENT_REQUIRED on the
// download); another live source keeps the product.
describe('entitlements follow what grants them', () => {
  const clock = createClock()

  const emu = useEmulator({ clock })

  /** A fresh product with one file, and a fresh customer. */
  async function setUp(name: string): Promise<{ product: PluginCredential; file: ProductFile; customerId: string }> {
    const product = await productWithCredential(emu, name)
    const file = await addFile(emu, product.productId, { sizeBytes: 2048 })
    const customerId = (await createCustomer(emu)).id
    return { product, file, customerId }
  }

  /** What the customer sees of the product in the library, and what its file's download answers. */
  async function access(customerId: string, productId: string, file: ProductFile) {
    const library = await getLibrary(emu, await libraryTokenOf(emu, customerId))
    expect(library.status).toBe(200)
    const listed = library.body.products.find((p: { product_id: string }) => p.product_id === productId)
    const download = await emu.request(
      'GET',
      `/api/downloads/${file.id}?download_token=${encodeURIComponent(library.body.download_token)}`
    )
    return { listed, links: (listed?.downloads ?? []).length as number, download }
  }

  async function expectGranted(customerId: string, productId: string, file: ProductFile) {
    const seen = await access(customerId, productId, file)
    expect(seen.listed?.entitled).toBe(true)
    expect(seen.links).toBe(1)
    expect(seen.download.status).toBe(200)
  }

  async function expectLapsed(customerId: string, productId: string, file: ProductFile) {
    const seen = await access(customerId, productId, file)
    expect(seen.listed).toMatchObject({ entitled: false, downloads: [] })
    expectError(seen.download, 403, 'ENTITLEMENT_REQUIRED')
    expect(seen.download.body.message).toContain('no longer')
  }

  const buy = (customerId: string, productId: string, kind: PurchaseKind = 'perpetual') =>
    purchase(emu, customerId, productId, { kind })
  const patchLicense = (id: string, body: Record<string, unknown>) => emu.control('PATCH', `/licenses/${id}`, body)

  it('a revoked license: no links and 403, back when reinstated', async () => {
    const { product, file, customerId } = await setUp('Revoked Rompler')
    const bought = await buy(customerId, product.productId)
    await expectGranted(customerId, product.productId, file)
    expect((await patchLicense(bought.license.id, { status: 'revoked' })).status).toBe(200)
    await expectLapsed(customerId, product.productId, file)
    expect((await patchLicense(bought.license.id, { status: 'active' })).status).toBe(200)
    await expectGranted(customerId, product.productId, file)
  })

  it('a suspended license keeps its downloads (suspension is not one of the ends)', async () => {
    const { product, file, customerId } = await setUp('Suspended Sampler')
    const bought = await buy(customerId, product.productId)
    expect((await patchLicense(bought.license.id, { status: 'suspended' })).status).toBe(200)
    await expectGranted(customerId, product.productId, file)
  })

  it('an expired license: no links and 403', async () => {
    const { product, file, customerId } = await setUp('Expired Exciter')
    const bought = await buy(customerId, product.productId)
    expect(
      (await patchLicense(bought.license.id, { expiresAt: new Date(clock.now().getTime() - 1000).toISOString() }))
        .status
    ).toBe(200)
    await expectLapsed(customerId, product.productId, file)
  })

  it('a trial past its end, on the emulator clock: no links and 403', async () => {
    const { product, file, customerId } = await setUp('Trial Tremolo')
    await buy(customerId, product.productId, 'trial')
    clock.setOffsetMs(13 * DAY_MS)
    try {
      await expectGranted(customerId, product.productId, file)
      clock.setOffsetMs(15 * DAY_MS)
      await expectLapsed(customerId, product.productId, file)
    } finally {
      clock.setOffsetMs(0)
    }
  })

  it('a refunded order: no links and 403', async () => {
    const { product, file, customerId } = await setUp('Refunded Reverb')
    const bought = await buy(customerId, product.productId)
    await expectGranted(customerId, product.productId, file)
    // The control plane has no refund action: a scenario (the way QA sets one up) marks the order refunded.
    const exported = await emu.control('GET', '/state')
    const state = exported.body.state as { orders: Array<Record<string, unknown>> }
    state.orders = state.orders.map((o) => (o.id === bought.order.id ? { ...o, status: 'refunded' } : o))
    expect((await emu.control('PUT', '/state', state)).status).toBe(200)
    await expectLapsed(customerId, product.productId, file)
  })

  it('another live source keeps the product: a second license, then a reseller claim', async () => {
    const { product, file, customerId } = await setUp('Kept Keys')
    const first = await buy(customerId, product.productId)
    const second = await buy(customerId, product.productId)
    expect((await patchLicense(first.license.id, { status: 'revoked' })).status).toBe(200)
    await expectGranted(customerId, product.productId, file)
    expect((await patchLicense(second.license.id, { status: 'revoked' })).status).toBe(200)
    await expectLapsed(customerId, product.productId, file)

    const claim = await resellerOrder(emu, product.productId)
    const session = await customerSession(emu, customerId)
    const claimed = await emu.request('POST', '/api/library/claim', {
      token: session,
      body: { claim_token: claim.claimToken }
    })
    expect(claimed.status).toBe(200)
    await expectGranted(customerId, product.productId, file)
  })

  it('a customer who never had the product gets the plain 403', async () => {
    const { file, customerId } = await setUp('Never Owned')
    const other = await setUp('Owned Elsewhere')
    await buy(customerId, other.product.productId)
    const library = await getLibrary(emu, await libraryTokenOf(emu, customerId))
    const download = await emu.request(
      'GET',
      `/api/downloads/${file.id}?download_token=${encodeURIComponent(library.body.download_token)}`
    )
    expectError(download, 403, 'ENTITLEMENT_REQUIRED')
    expect(download.body.message).toContain('no entitlement')
  })
})
