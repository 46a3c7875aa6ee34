import { beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import {
  createCustomer,
  customerSession,
  getLibrary,
  HOUR_MS,
  libraryTokenOf,
  resellerOrder
} from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// POST /api/library/claim needs a signed-in user JWT (docs/api.md, Surfaces): none is
// 401 AUTH_REQUIRED; a token that is not a signed-in user's is refused and the item stays unclaimed.
describe('POST /api/library/claim: who may claim', () => {
  const clock = createClock()
  let product: PluginCredential

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    product = await productWithCredential(emu, 'Auth Autotune')
  })

  /** The item is still claimable: a real customer can take it afterwards. */
  async function expectStillClaimable(claimToken: string): Promise<void> {
    const customer = await createCustomer(emu)
    const claimed = await emu.request('POST', '/api/library/claim', {
      token: await customerSession(emu, customer.id),
      body: { claim: claimToken }
    })
    expect(claimed.status, claimed.text).toBe(200)
    expect(claimed.body.already_claimed).toBe(false)
  }

  it('no JWT at all is 401 AUTH_REQUIRED', async () => {
    const order = await resellerOrder(emu, product.productId)
    expectError(
      await emu.request('POST', '/api/library/claim', { body: { claim: order.claimToken } }),
      401,
      'AUTH_REQUIRED'
    )
    expectError(
      await emu.request('POST', `/api/library/claim?claim=${encodeURIComponent(order.claimToken)}`),
      401,
      'AUTH_REQUIRED'
    )
    await expectStillClaimable(order.claimToken)
  })

  it('a library token is not a signed-in user', async () => {
    const customer = await createCustomer(emu)
    const order = await resellerOrder(emu, product.productId)
    const libraryToken = await libraryTokenOf(emu, customer.id)
    const refused = await emu.request('POST', '/api/library/claim', {
      token: libraryToken,
      body: { claim: order.claimToken }
    })
    expect(refused.status, refused.text).toBe(401)
    expectError(refused, 401, 'INVALID_TOKEN')
    // The message names what the route does take, and what was sent.
    expect(refused.body.message).toMatch(/customer session token or a developer session token/)
    expect(refused.body.message).toMatch(/library token/)
    expect(refused.body.message).not.toMatch(/not a developer session token/)
    // The download token the library hands out is not one either.
    const downloadToken = (await getLibrary(emu, libraryToken)).body.download_token as string
    const alsoRefused = await emu.request('POST', '/api/library/claim', {
      token: downloadToken,
      body: { claim: order.claimToken }
    })
    expect(alsoRefused.status).toBe(401)
    expect(alsoRefused.body.message).toMatch(/customer session token or a developer session token/)
    expect((await getLibrary(emu, libraryToken)).body.products).toEqual([])
    await expectStillClaimable(order.claimToken)
  })

  it('a garbage bearer value is 401 INVALID_TOKEN', async () => {
    const order = await resellerOrder(emu, product.productId)
    expectError(
      await emu.request('POST', '/api/library/claim', { token: 'not-a-jwt', body: { claim: order.claimToken } }),
      401,
      'INVALID_TOKEN'
    )
    await expectStillClaimable(order.claimToken)
  })

  it('a product credential as Bearer is not a signed-in user', async () => {
    const order = await resellerOrder(emu, product.productId)
    const refused = await emu.request('POST', '/api/library/claim', {
      token: product.pluginKey,
      body: { claim: order.claimToken }
    })
    expect([401, 403]).toContain(refused.status)
    expectError(refused, refused.status, refused.body.error as string)
    await expectStillClaimable(order.claimToken)
  })

  it('an expired customer JWT is 401 TOKEN_EXPIRED', async () => {
    const customer = await createCustomer(emu)
    const session = await customerSession(emu, customer.id, 60)
    const order = await resellerOrder(emu, product.productId)
    clock.setOffsetMs(HOUR_MS)
    try {
      expectError(
        await emu.request('POST', '/api/library/claim', { token: session, body: { claim: order.claimToken } }),
        401,
        'TOKEN_EXPIRED'
      )
    } finally {
      clock.setOffsetMs(0)
    }
    await expectStillClaimable(order.claimToken)
  })

  it('the token is checked before the claim token: no JWT and an unknown claim is still 401', async () => {
    expectError(
      await emu.request('POST', '/api/library/claim', { body: { claim: 'clm_unknown' } }),
      401,
      'AUTH_REQUIRED'
    )
  })
})
