import { beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { PRESET_CREDENTIAL } from '../../src/core/scenarios/presets'
import { addFile, createCustomer, DAY_MS, getLibrary, libraryTokenOf, purchase } from '../support/commerce'
import type { ProductFile, Purchase } from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// The subscription lifecycle on the emulator clock: renewal at period end, cancel at period end,
// resume, payment failure to past_due with a grace period, then expiry. At every step licensing,
// the library and downloads agree; the clock is moved through the control plane, as QA does.
describe('subscription lifecycle on the emulator clock', () => {
  const base = Date.parse('2031-03-01T10:00:00.000Z')
  const clock = createClock(() => base)
  const iso = (days: number) => new Date(base + days * DAY_MS).toISOString()
  let product: PluginCredential
  let file: ProductFile
  let customerId: string
  let bought: Purchase
  let subscriptionId: string

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    product = await productWithCredential(emu, 'Lifecycle Looper')
    file = await addFile(emu, product.productId, { sizeBytes: 512 })
    customerId = (await createCustomer(emu)).id
    bought = await purchase(emu, customerId, product.productId, { kind: 'subscription' })
    subscriptionId = bought.subscription?.id as string
    expect(bought.subscription?.currentPeriodEnd).toBe(iso(30))
  })

  const moveTo = async (days: number) =>
    expect((await emu.control('PUT', '/clock', { offsetS: days * 86_400 })).status).toBe(200)
  const act = (action: string) => emu.control('POST', `/subscriptions/${subscriptionId}/${action}`)

  /** Licensing, library, download and control plane, as they answer now. */
  async function observe() {
    const validated = await pluginClient(emu, product).validate(bought.license.key)
    expect(validated.status).toBe(200)
    const library = await getLibrary(emu, await libraryTokenOf(emu, customerId))
    expect(library.status).toBe(200)
    const download = await emu.request(
      'GET',
      `/api/downloads/${file.id}?download_token=${encodeURIComponent(library.body.download_token)}`
    )
    const control = await emu.control('GET', `/subscriptions/${subscriptionId}`)
    expect(control.status).toBe(200)
    const listedProduct = library.body.products.find((p: { product_id: string }) => p.product_id === product.productId)
    const listedLicense = library.body.licenses.find((l: { id: string }) => l.id === bought.license.id)
    return {
      code: validated.body.code as string,
      license: validated.body.license as Record<string, unknown>,
      subscription: library.body.subscriptions[0] as Record<string, unknown>,
      libraryLicenseState: listedLicense.state as string,
      links: listedProduct.downloads.length as number,
      download: download.status,
      standing: control.body.standing as Record<string, unknown>
    }
  }

  /** The three surfaces agree: a live subscription is VALID with links and 200; a lapsed one EXPIRED, none and 403. */
  function expectAgreement(seen: Awaited<ReturnType<typeof observe>>, live: boolean) {
    expect(seen.standing.live).toBe(live)
    expect(seen.code).toBe(live ? 'VALID' : 'EXPIRED')
    expect(seen.libraryLicenseState).toBe(seen.code)
    expect(seen.links).toBe(live ? 1 : 0)
    expect(seen.download).toBe(live ? 200 : 403)
    expect(seen.license.subscription_status).toBe(seen.subscription.status)
    expect(seen.standing.state).toBe(seen.subscription.status)
  }

  it('renews at the period end while active', async () => {
    await moveTo(29)
    let seen = await observe()
    expectAgreement(seen, true)
    expect(seen.subscription).toMatchObject({
      status: 'active',
      renews_at: iso(30),
      current_period_end: iso(30),
      grace_until: null
    })
    await moveTo(31)
    seen = await observe()
    expectAgreement(seen, true)
    expect(seen.subscription).toMatchObject({ status: 'active', renews_at: iso(60), current_period_end: iso(60) })
    expect(seen.license).toMatchObject({ expires_at: iso(60), subscription_status: 'active', grace_until: null })
  })

  it('cancel keeps it until the period end and stops the renewal; resume undoes that', async () => {
    const cancelled = await act('cancel')
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.standing).toMatchObject({
      state: 'active',
      cancelAtPeriodEnd: true,
      renewsAt: null,
      currentPeriodEnd: iso(60)
    })
    expect(cancelled.body.subscription).toMatchObject({
      cancelAtPeriodEnd: true,
      canceledAt: iso(31),
      currentPeriodEnd: iso(60)
    })
    let seen = await observe()
    expectAgreement(seen, true)
    expect(seen.subscription).toMatchObject({ status: 'active', cancel_at_period_end: true, renews_at: null })
    // Cancelling twice changes nothing.
    expect((await act('cancel')).body.subscription.canceledAt).toBe(iso(31))

    const resumed = await act('resume')
    expect(resumed.status).toBe(200)
    expect(resumed.body.standing).toMatchObject({ state: 'active', cancelAtPeriodEnd: false, renewsAt: iso(60) })
    seen = await observe()
    expectAgreement(seen, true)
    expect(seen.subscription).toMatchObject({ cancel_at_period_end: false, canceled_at: null, renews_at: iso(60) })
  })

  it('a cancelled subscription ends at its period end: EXPIRED, no links, 403; resume is refused, renew now restarts it', async () => {
    expect((await act('cancel')).status).toBe(200)
    await moveTo(59)
    expectAgreement(await observe(), true)
    await moveTo(61)
    const seen = await observe()
    expectAgreement(seen, false)
    expect(seen.subscription).toMatchObject({ status: 'canceled', ended_at: iso(60), renews_at: null })

    const refused = await act('resume')
    expectError(refused, 409, 'SUBSCRIPTION_STATE_CONFLICT')
    expect(refused.body.state).toBe('canceled')
    expectError(await act('payment-fails'), 409, 'SUBSCRIPTION_STATE_CONFLICT')

    const renewed = await act('renew-now')
    expect(renewed.status).toBe(200)
    expect(renewed.body.standing).toMatchObject({
      state: 'active',
      currentPeriodEnd: iso(91),
      renewsAt: iso(91),
      cancelAtPeriodEnd: false
    })
    expectAgreement(await observe(), true)
  })

  it('a failed payment makes it past_due: licensing stays VALID and says grace_until; downloads stay', async () => {
    const failed = await act('payment-fails')
    expect(failed.status).toBe(200)
    expect(failed.body.subscription).toMatchObject({ status: 'past_due', paymentFailedAt: iso(61) })
    expect(failed.body.standing).toMatchObject({ state: 'past_due', graceUntil: iso(68), renewsAt: null })
    await moveTo(67)
    const seen = await observe()
    expectAgreement(seen, true)
    expect(seen.license).toMatchObject({ subscription_status: 'past_due', grace_until: iso(68), expires_at: iso(68) })
    expect(seen.subscription).toMatchObject({ status: 'past_due', grace_until: iso(68), renews_at: null })
  })

  it('past the grace period it expires; the grace period is a runtime setting', async () => {
    await moveTo(69)
    let seen = await observe()
    expectAgreement(seen, false)
    expect(seen.subscription).toMatchObject({ status: 'expired', ended_at: iso(68) })
    expectError(await act('payment-succeeds'), 409, 'SUBSCRIPTION_STATE_CONFLICT')

    // A longer grace period, set at runtime, reaches back to this subscription's failed payment.
    const settings = await emu.control('PUT', '/settings', { subscriptionGraceDays: 10 })
    expect(settings.status).toBe(200)
    expect(settings.body.settings.subscriptionGraceDays).toBe(10)
    expect((await emu.control('GET', '/settings')).body.settings.subscriptionGraceDays).toBe(10)
    seen = await observe()
    expectAgreement(seen, true)
    expect(seen.license).toMatchObject({ subscription_status: 'past_due', grace_until: iso(71) })
  })

  it('a payment that succeeds while past_due makes it active again, renewing from the period that failed', async () => {
    const paid = await act('payment-succeeds')
    expect(paid.status).toBe(200)
    expect(paid.body.subscription).toMatchObject({ status: 'active', paymentFailedAt: null })
    expect(paid.body.standing).toMatchObject({
      state: 'active',
      currentPeriodEnd: iso(91),
      renewsAt: iso(91),
      graceUntil: null
    })
    const seen = await observe()
    expectAgreement(seen, true)
    expect(seen.license).toMatchObject({ subscription_status: 'active', grace_until: null, expires_at: iso(91) })
    // Paying twice changes nothing.
    expect((await act('payment-succeeds')).body.standing.currentPeriodEnd).toBe(iso(91))
  })

  it('answers 404 for an unknown subscription and refuses a bad grace setting', async () => {
    expectError(await emu.control('POST', '/subscriptions/sub_nope/cancel'), 404, 'SUBSCRIPTION_NOT_FOUND')
    expectError(await emu.control('GET', '/subscriptions/sub_nope'), 404, 'SUBSCRIPTION_NOT_FOUND')
    expectError(await emu.control('PUT', '/settings', { subscriptionGraceDays: -1 }), 400, 'VALIDATION_ERROR')
    expectError(await emu.control('PUT', '/settings', { subscriptionGraceDays: 'seven' }), 400, 'VALIDATION_ERROR')
    expectError(
      await emu.control('POST', `/subscriptions/${subscriptionId}/cancel`, { when: 'now' }),
      400,
      'VALIDATION_ERROR'
    )
    expect((await emu.control('GET', '/settings')).body.settings.subscriptionGraceDays).toBe(10)
  })
})

describe('the subscription-lifecycle preset', () => {
  const emu = useEmulator()

  it('shows each state, and only the live ones grant downloads and licensing', async () => {
    expect((await emu.control('POST', '/presets/subscription-lifecycle')).status).toBe(200)
    const library = await getLibrary(emu, await libraryTokenOf(emu, 'cus_demo'))
    expect(library.status).toBe(200)
    const byProduct = (id: string) => ({
      subscription: library.body.subscriptions.find((s: { product_id: string }) => s.product_id === id),
      product: library.body.products.find((p: { product_id: string }) => p.product_id === id)
    })
    const expected: Array<[string, string, boolean, boolean]> = [
      ['prod_demo_synth', 'active', false, true],
      ['prod_demo_chorus', 'active', true, true],
      ['prod_demo_delay', 'past_due', false, true],
      ['prod_demo_compressor', 'canceled', true, false],
      ['prod_demo_limiter', 'expired', false, false]
    ]
    for (const [productId, status, cancelAtPeriodEnd, entitled] of expected) {
      const { subscription, product } = byProduct(productId)
      expect({
        productId,
        status: subscription.status,
        cancel: subscription.cancel_at_period_end,
        entitled: product.entitled,
        links: product.downloads.length
      }).toEqual({
        productId,
        status,
        cancel: cancelAtPeriodEnd,
        entitled,
        links: entitled ? 1 : 0
      })
    }
    expect(byProduct('prod_demo_delay').subscription.grace_until).not.toBeNull()
    // Licensing agrees: the Demo Synth credential validates the Demo Synth subscription license.
    const validated = await pluginClient(emu, PRESET_CREDENTIAL).validate('SUBS1-ACTIV-ERENE-WS000-00001')
    expect(validated.body).toMatchObject({
      valid: true,
      code: 'VALID',
      license: { subscription_status: 'active', grace_until: null }
    })
  })
})

describe('paymentFailedAt in a scenario document', () => {
  const emu = useEmulator()

  it('must be an RFC 3339 date-time; the 400 names the path', async () => {
    expect((await emu.control('POST', '/presets/subscription-lifecycle')).status).toBe(200)
    const exported = (await emu.control('GET', '/state')).body.state as {
      subscriptions: Array<Record<string, unknown>>
    }
    const pastDue = exported.subscriptions.findIndex((s) => s.status === 'past_due')
    expect(exported.subscriptions[pastDue]?.paymentFailedAt).toEqual(expect.any(String))
    const subscriptions = exported.subscriptions.map((s, index) =>
      index === pastDue ? { ...s, paymentFailedAt: 'last tuesday' } : s
    )
    const refused = await emu.control('PUT', '/state', { ...exported, subscriptions })
    expectError(refused, 400, 'VALIDATION_ERROR')
    expect(refused.body.message).toContain(`/subscriptions/${pastDue}/paymentFailedAt`)
  })
})
