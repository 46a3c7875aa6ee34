import { describe, expect, it } from 'vitest'

import { DAY_MS, purchase } from '../support/commerce'
import { expectError } from '../support/credentials'
import { licensingSuite } from '../support/licensing-suite'

// POST activate / deactivate (docs/api.md section 5): 201 new, 200 idempotent; failures are the licensing
// codes as `error` with 4xx: 404 not found, 403 suspended/expired/revoked/scope, 409 too many.
describe('POST /api/license/v1/activate and /deactivate', () => {
  const base = Date.parse('2036-07-07T07:00:00.000Z')
  const suite = licensingSuite(new Date(base).toISOString(), ['Activation Arp', 'Other Ensemble'])
  const { clock, buy, plugin } = suite
  const activationsOf = async (licenseId: string) =>
    (await suite.emu.control('GET', `/licenses/${licenseId}`)).body.activations as Array<Record<string, any>>

  it('201 for a new activation, with the license, the activation and a license token', async () => {
    const bought = await buy('perpetual', { maxActivations: 2 })
    const result = await plugin().activate(bought.license.key, 'mac-studio', {
      instance_name: 'Mac Studio',
      platform: 'macos',
      app_version: '1.4.2'
    })
    expect(result.status, result.text).toBe(201)
    expect(result.body).toMatchObject({ ok: true, activated: true, created: true, code: 'VALID' })
    expect(result.body.license).toMatchObject({ id: bought.license.id, activation_count: 1, activations_remaining: 1 })
    expect(result.body.activation).toMatchObject({
      instance_id: 'mac-studio',
      instance_name: 'Mac Studio',
      platform: 'macos',
      app_version: '1.4.2',
      first_seen_at: new Date(base).toISOString(),
      deactivated_at: null
    })
    expect(typeof result.body.license_token).toBe('string')
    // The answer is built from what was written, not read back: it must be what is stored.
    const stored = await activationsOf(bought.license.id)
    expect(stored.map((a) => a.id)).toEqual([result.body.activation.id])
    const validated = await plugin().validate(bought.license.key, 'mac-studio')
    expect(validated.body.activation).toEqual(result.body.activation)
    expect(validated.body.license).toEqual(result.body.license)
  })

  it('is idempotent per instance: 200, no slot used, the same activation seen again', async () => {
    const bought = await buy('perpetual', { maxActivations: 1 })
    const first = await plugin().activate(bought.license.key, 'only-seat')
    expect(first.status).toBe(201)
    clock.setOffsetMs(60_000)
    try {
      const again = await plugin().activate(bought.license.key, 'only-seat', { app_version: '2.0.0' })
      expect(again.status, again.text).toBe(200)
      expect(again.body).toMatchObject({ ok: true, activated: true, created: false, code: 'VALID' })
      expect(again.body.activation.id).toBe(first.body.activation.id)
      expect(again.body.activation.first_seen_at).toBe(new Date(base).toISOString())
      expect(again.body.activation.last_seen_at).toBe(new Date(base + 60_000).toISOString())
      expect(again.body.activation.app_version).toBe('2.0.0')
      expect(again.body.license.activation_count).toBe(1)
      expect(again.body.license.activations_remaining).toBe(0)
    } finally {
      clock.setOffsetMs(0)
    }
    // The one seat is still taken by that instance only.
    expectError(await plugin().activate(bought.license.key, 'second-seat'), 409, 'TOO_MANY_ACTIVATIONS')
    expect(await activationsOf(bought.license.id)).toHaveLength(1)
  })

  it('409 TOO_MANY_ACTIVATIONS past the limit; deactivating frees a slot', async () => {
    const bought = await buy('perpetual', { maxActivations: 2 })
    expect((await plugin().activate(bought.license.key, 'a')).status).toBe(201)
    expect((await plugin().activate(bought.license.key, 'b')).status).toBe(201)
    const third = await plugin().activate(bought.license.key, 'c')
    expectError(third, 409, 'TOO_MANY_ACTIVATIONS')
    expect(third.body.license_token).toBeUndefined()

    const off = await plugin().deactivate(bought.license.key, 'a')
    expect(off.status, off.text).toBe(200)
    expect(off.body).toMatchObject({ ok: true, deactivated: true })
    expect(off.body.activation.instance_id).toBe('a')
    expect(off.body.activation.deactivated_at).toBe(new Date(base).toISOString())
    expect(off.body.license.activation_count).toBe(1)
    expect((await plugin().activate(bought.license.key, 'c')).status).toBe(201)
  })

  it('concurrent activations of different instances never exceed the limit', async () => {
    const bought = await buy('perpetual', { maxActivations: 2 })
    const results = await Promise.all(
      ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'].map((id) => plugin().activate(bought.license.key, id))
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(2)
    const refused = results.filter((r) => r.status !== 201)
    expect(refused).toHaveLength(4)
    for (const r of refused) expectError(r, 409, 'TOO_MANY_ACTIVATIONS')
    expect((await activationsOf(bought.license.id)).filter((a) => a.deactivatedAt === null)).toHaveLength(2)
  })

  it('concurrent activations of the same instance use one slot', async () => {
    const bought = await buy('perpetual', { maxActivations: 2 })
    const results = await Promise.all([1, 2, 3, 4].map(() => plugin().activate(bought.license.key, 'same-box')))
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201])
    expect(new Set(results.map((r) => r.body.activation.id)).size).toBe(1)
    expect(await activationsOf(bought.license.id)).toHaveLength(1)
  })

  it('409 TOO_MANY_ACTIVATIONS with a limit of zero', async () => {
    const bought = await buy('perpetual', { maxActivations: 0 })
    expectError(await plugin().activate(bought.license.key, 'any'), 409, 'TOO_MANY_ACTIVATIONS')
  })

  it('a deactivated instance activates again as a new activation (201)', async () => {
    const bought = await buy()
    const first = await plugin().activate(bought.license.key, 'returning')
    expect((await plugin().deactivate(bought.license.key, 'returning')).status).toBe(200)
    const back = await plugin().activate(bought.license.key, 'returning')
    expect(back.status).toBe(201)
    expect(back.body.activation.id).not.toBe(first.body.activation.id)
    expect((await activationsOf(bought.license.id)).map((a) => a.deactivatedAt === null)).toEqual([false, true])
  })

  it('404 NOT_FOUND for an unknown key, on activate and deactivate', async () => {
    expectError(await plugin().activate('ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', 'x'), 404, 'NOT_FOUND')
    expectError(await plugin().deactivate('ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ', 'x'), 404, 'NOT_FOUND')
  })

  it('403 PRODUCT_SCOPE_MISMATCH for a license of another product, on activate and deactivate', async () => {
    const foreign = await purchase(suite.emu, suite.customerId, suite.otherProduct.productId)
    expect((await suite.otherPlugin().activate(foreign.license.key, 'theirs')).status).toBe(201)
    expectError(await plugin().activate(foreign.license.key, 'mine'), 403, 'PRODUCT_SCOPE_MISMATCH')
    expectError(await plugin().deactivate(foreign.license.key, 'theirs'), 403, 'PRODUCT_SCOPE_MISMATCH')
    // Nothing changed on the other product's license.
    expect((await activationsOf(foreign.license.id)).map((a) => a.instanceId)).toEqual(['theirs'])
  })

  it('403 SUSPENDED and 403 REVOKED on activate', async () => {
    const bought = await buy()
    expect((await suite.emu.control('PATCH', `/licenses/${bought.license.id}`, { status: 'suspended' })).status).toBe(
      200
    )
    expectError(await plugin().activate(bought.license.key, 'x'), 403, 'SUSPENDED')
    expect((await suite.emu.control('PATCH', `/licenses/${bought.license.id}`, { status: 'revoked' })).status).toBe(200)
    expectError(await plugin().activate(bought.license.key, 'x'), 403, 'REVOKED')
    expect(await activationsOf(bought.license.id)).toEqual([])
  })

  it('403 EXPIRED for an expired perpetual license and for a cancelled subscription past its period', async () => {
    const perpetual = await buy('perpetual', { expiresAt: new Date(base - 1000).toISOString() })
    expectError(await plugin().activate(perpetual.license.key, 'x'), 403, 'EXPIRED')
    const subscription = await buy('subscription')
    // An active subscription renews at its period end; one cancelled ends there.
    expect((await suite.emu.control('POST', `/subscriptions/${subscription.subscription?.id}/cancel`)).status).toBe(200)
    clock.setOffsetMs(31 * DAY_MS)
    try {
      expectError(await plugin().activate(subscription.license.key, 'x'), 403, 'EXPIRED')
    } finally {
      clock.setOffsetMs(0)
    }
    expect((await plugin().activate(subscription.license.key, 'x')).status).toBe(201)
    // Without the cancel, the same day finds it renewed.
    const renewing = await buy('subscription')
    clock.setOffsetMs(31 * DAY_MS)
    try {
      expect((await plugin().activate(renewing.license.key, 'x')).status).toBe(201)
    } finally {
      clock.setOffsetMs(0)
    }
  })

  it('403 TRIAL_EXPIRED for a trial past its end', async () => {
    const trial = await buy('trial')
    clock.setOffsetMs(14 * DAY_MS + 1000)
    try {
      expectError(await plugin().activate(trial.license.key, 'x'), 403, 'TRIAL_EXPIRED')
    } finally {
      clock.setOffsetMs(0)
    }
  })

  it('404 NOT_ACTIVATED when deactivating an instance that is not active (or twice)', async () => {
    const bought = await buy()
    expectError(await plugin().deactivate(bought.license.key, 'never'), 404, 'NOT_ACTIVATED')
    expect((await plugin().activate(bought.license.key, 'once')).status).toBe(201)
    expect((await plugin().deactivate(bought.license.key, 'once')).status).toBe(200)
    expectError(await plugin().deactivate(bought.license.key, 'once'), 404, 'NOT_ACTIVATED')
  })

  it('a suspended customer can still free a seat (deactivate is not blocked by the license state)', async () => {
    const bought = await buy()
    expect((await plugin().activate(bought.license.key, 'seat')).status).toBe(201)
    expect((await suite.emu.control('PATCH', `/licenses/${bought.license.id}`, { status: 'suspended' })).status).toBe(
      200
    )
    const off = await plugin().deactivate(bought.license.key, 'seat')
    expect(off.status, off.text).toBe(200)
    expect(off.body.license.activation_count).toBe(0)
  })
})
