import { describe, expect, it } from 'vitest'

import { DAY_MS, HOUR_MS, purchase } from '../support/commerce'
import type { HttpResult } from '../support/emulator'
import { licensingSuite } from '../support/licensing-suite'

// POST /api/license/v1/validate: always 200 once authenticated, `{ ok:true, valid, code, message, license?,
// activation?, license_token? }` with the codes of docs/api.md section 5, judged on the emulator clock.
describe('POST /api/license/v1/validate: every code', () => {
  const base = Date.parse('2035-05-05T12:00:00.000Z')
  const suite = licensingSuite(new Date(base).toISOString(), ['Validate Vocoder', 'Other Overdrive'])
  const { clock, buy, plugin } = suite
  const patchLicense = (id: string, body: Record<string, unknown>) =>
    suite.emu.control('PATCH', `/licenses/${id}`, body)

  /** 200, `ok:true`, the code, `valid` true only for VALID, a message, and a token only when valid. */
  function expectCode(result: HttpResult, code: string): void {
    expect(result.status, result.text).toBe(200)
    expect(result.body.ok).toBe(true)
    expect(result.body.code).toBe(code)
    expect(result.body.valid).toBe(code === 'VALID')
    expect(typeof result.body.message).toBe('string')
    expect(result.body.message.length).toBeGreaterThan(0)
    if (code === 'VALID') expect(typeof result.body.license_token).toBe('string')
    else expect(result.body.license_token).toBeUndefined()
  }

  it('VALID: a fresh perpetual license, with its license view', async () => {
    const bought = await buy('perpetual', { maxActivations: 4 })
    const result = await plugin().validate(bought.license.key)
    expectCode(result, 'VALID')
    expect(result.body.license).toMatchObject({
      id: bought.license.id,
      license_key: bought.license.key,
      product_id: suite.product.productId,
      kind: 'perpetual',
      status: 'active',
      expires_at: null,
      max_activations: 4,
      activation_count: 0,
      activations_remaining: 4
    })
    expect(result.body.activation).toBeUndefined()
  })

  it('VALID with an instance: the activation is returned and counted', async () => {
    const bought = await buy()
    expect((await plugin().activate(bought.license.key, 'box-1')).status).toBe(201)
    const result = await plugin().validate(bought.license.key, 'box-1')
    expectCode(result, 'VALID')
    expect(result.body.activation).toMatchObject({ instance_id: 'box-1', deactivated_at: null })
    expect(result.body.license.activation_count).toBe(1)
  })

  it('NOT_FOUND: an unknown key (and no license view)', async () => {
    const result = await plugin().validate('ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ')
    expectCode(result, 'NOT_FOUND')
    expect(result.body.license).toBeUndefined()
  })

  it('PRODUCT_SCOPE_MISMATCH: a license of another product (and nothing about it leaks)', async () => {
    const foreign = await purchase(suite.emu, suite.customerId, suite.otherProduct.productId)
    const result = await plugin().validate(foreign.license.key)
    expectCode(result, 'PRODUCT_SCOPE_MISMATCH')
    expect(result.body.license).toBeUndefined()
    expect(result.text).not.toContain(foreign.license.id)
    // The right product validates it.
    expectCode(await suite.otherPlugin().validate(foreign.license.key), 'VALID')
  })

  it('SUSPENDED and REVOKED follow PATCH /_emulator/licenses/:id, and reinstating makes it VALID again', async () => {
    const bought = await buy()
    expect((await patchLicense(bought.license.id, { status: 'suspended' })).status).toBe(200)
    const suspended = await plugin().validate(bought.license.key)
    expectCode(suspended, 'SUSPENDED')
    expect(suspended.body.license.status).toBe('suspended')

    expect((await patchLicense(bought.license.id, { status: 'revoked' })).status).toBe(200)
    const revoked = await plugin().validate(bought.license.key)
    expectCode(revoked, 'REVOKED')
    expect(revoked.body.license.status).toBe('revoked')

    expect((await patchLicense(bought.license.id, { status: 'active' })).status).toBe(200)
    expectCode(await plugin().validate(bought.license.key), 'VALID')
  })

  it('EXPIRED: a perpetual license with an expiresAt, once the clock passes it', async () => {
    const expiresAt = new Date(base + 2 * HOUR_MS).toISOString()
    const bought = await buy('perpetual', { expiresAt })
    const before = await plugin().validate(bought.license.key)
    expectCode(before, 'VALID')
    expect(before.body.license.expires_at).toBe(expiresAt)
    clock.setOffsetMs(2 * HOUR_MS)
    try {
      expectCode(await plugin().validate(bought.license.key), 'EXPIRED')
    } finally {
      clock.setOffsetMs(0)
    }
    expectCode(await plugin().validate(bought.license.key), 'VALID')
  })

  it('EXPIRED: a license whose expiresAt is set into the past by PATCH', async () => {
    const bought = await buy()
    expect((await patchLicense(bought.license.id, { expiresAt: new Date(base - 1000).toISOString() })).status).toBe(200)
    expectCode(await plugin().validate(bought.license.key), 'EXPIRED')
    expect((await patchLicense(bought.license.id, { expiresAt: null })).status).toBe(200)
    expectCode(await plugin().validate(bought.license.key), 'VALID')
  })

  it('EXPIRED: a cancelled subscription once its paid period ends (one not cancelled renews)', async () => {
    const bought = await buy('subscription')
    const periodEnd = bought.subscription?.currentPeriodEnd as string
    expect(periodEnd).toBe(new Date(base + 30 * DAY_MS).toISOString())
    const before = await plugin().validate(bought.license.key)
    expectCode(before, 'VALID')
    expect(before.body.license).toMatchObject({
      expires_at: periodEnd,
      subscription_status: 'active',
      grace_until: null
    })
    const renewing = await buy('subscription')
    expect((await suite.emu.control('POST', `/subscriptions/${bought.subscription?.id}/cancel`)).status).toBe(200)
    clock.setOffsetMs(30 * DAY_MS - 1000)
    try {
      expectCode(await plugin().validate(bought.license.key), 'VALID')
      clock.setOffsetMs(30 * DAY_MS + 1000)
      const ended = await plugin().validate(bought.license.key)
      expectCode(ended, 'EXPIRED')
      expect(ended.body.license).toMatchObject({ expires_at: periodEnd, subscription_status: 'canceled' })
      const renewed = await plugin().validate(renewing.license.key)
      expectCode(renewed, 'VALID')
      expect(renewed.body.license.expires_at).toBe(
        new Date(Date.parse(renewing.subscription?.currentPeriodEnd as string) + 30 * DAY_MS).toISOString()
      )
    } finally {
      clock.setOffsetMs(0)
    }
  })

  it('TRIAL_EXPIRED: a trial once its 14 days are over', async () => {
    const bought = await buy('trial')
    expectCode(await plugin().validate(bought.license.key), 'VALID')
    clock.setOffsetMs(15 * DAY_MS)
    try {
      const result = await plugin().validate(bought.license.key)
      expectCode(result, 'TRIAL_EXPIRED')
      expect(result.body.license.kind).toBe('trial')
    } finally {
      clock.setOffsetMs(0)
    }
  })

  it('NOT_ACTIVATED: a valid license asked about an instance it is not active on', async () => {
    const bought = await buy()
    expectCode(await plugin().validate(bought.license.key, 'never-activated'), 'NOT_ACTIVATED')
    expect((await plugin().activate(bought.license.key, 'was-active')).status).toBe(201)
    expect((await plugin().deactivate(bought.license.key, 'was-active')).status).toBe(200)
    expectCode(await plugin().validate(bought.license.key, 'was-active'), 'NOT_ACTIVATED')
  })

  it("the license's own state wins over the activation question", async () => {
    const bought = await buy()
    expect((await plugin().activate(bought.license.key, 'box')).status).toBe(201)
    expect((await patchLicense(bought.license.id, { status: 'suspended' })).status).toBe(200)
    expectCode(await plugin().validate(bought.license.key, 'box'), 'SUSPENDED')
    expectCode(await plugin().validate(bought.license.key, 'not-this-box'), 'SUSPENDED')
  })

  it('the key is matched after trimming surrounding spaces', async () => {
    const bought = await buy()
    expectCode(await plugin().validate(`  ${bought.license.key} `), 'VALID')
  })
})
