import { createLocalJWKSet, errors, jwtVerify } from 'jose'
import { describe, expect, it } from 'vitest'

import { PRESET_CLAIM_TOKEN, PRESET_CREDENTIAL } from '../../src/core/scenarios/presets'
import { useEmulator } from '../support/emulator'
import { pluginClient } from '../support/plugin-client'

const emu = useEmulator()

const demoPlugin = () => pluginClient(emu, PRESET_CREDENTIAL)

describe('presets', () => {
  it('lists the built-in scenarios', async () => {
    const listed = await emu.control('GET', '/presets')
    expect(listed.body.presets.map((p: { name: string }) => p.name)).toEqual([
      'fresh-developer',
      'full-library',
      'reseller-claim',
      'revoked-credential',
      'legacy-credential',
      'subscription-lifecycle'
    ])
  })

  it('full-library answers every license state the preset promises', async () => {
    expect((await emu.control('POST', '/presets/full-library')).status).toBe(200)
    const plugin = demoPlugin()
    const codes: Record<string, string> = {}
    for (const [key, expected] of [
      ['DEMO1-PERPE-TUAL0-00000-00001', 'VALID'],
      ['DEMO2-SUBSC-RIPTI-ON000-00002', 'VALID'],
      ['DEMO3-TRIAL-00000-00000-00003', 'VALID'],
      ['DEMO4-EXPIR-ED000-00000-00004', 'EXPIRED'],
      ['DEMO5-REVOK-ED000-00000-00005', 'REVOKED'],
      ['DEMO6-SUSPE-NDED0-00000-00006', 'SUSPENDED']
    ] as const) {
      codes[key] = (await plugin.validate(key)).body.code
      expect(codes[key]).toBe(expected)
    }
    const limited = await plugin.activate('DEMO7-LIMIT-REACH-ED000-00007', 'another-machine')
    expect(limited.status).toBe(409)
    expect(limited.body.error).toBe('TOO_MANY_ACTIVATIONS')
    const library = await emu.control('POST', '/customers/cus_demo/library-token')
    const payload = await emu.request('GET', '/api/library', { token: library.body.libraryToken })
    expect(payload.body.licenses).toHaveLength(7)
    expect(payload.body.subscriptions[0].renews_at).not.toBeNull()
  })

  it('reseller-claim can be claimed with the documented token', async () => {
    await emu.control('POST', '/presets/reseller-claim')
    const session = await emu.control('POST', '/customers/cus_demo/session', {})
    const claimed = await emu.request('POST', '/api/library/claim', {
      token: session.body.token,
      body: { claim_token: PRESET_CLAIM_TOKEN }
    })
    expect(claimed.status).toBe(200)
    expect(claimed.body.license.product_id).toBe(PRESET_CREDENTIAL.productId)
  })

  it('revoked-credential and legacy-credential behave as their names say', async () => {
    await emu.control('POST', '/presets/revoked-credential')
    const refused = await emu.request('POST', '/api/plugin-connections/verify', { body: PRESET_CREDENTIAL })
    expect(refused.body.reason).toBe('CREDENTIAL_REVOKED')

    await emu.control('POST', '/presets/legacy-credential')
    const session = await emu.control('POST', '/developers/dev_demo/session', {})
    const reveal = await emu.request(
      'POST',
      `/api/developer/plugin-keys/products/${PRESET_CREDENTIAL.productId}/reveal-secret`,
      { token: session.body.token }
    )
    expect(reveal.status).toBe(409)
    expect(reveal.body.error).toBe('PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE')
    expect((await emu.request('POST', '/api/plugin-connections/verify', { body: PRESET_CREDENTIAL })).status).toBe(200)
  })

  it('an unknown preset is 404 and changes nothing', async () => {
    await emu.control('POST', '/presets/fresh-developer')
    const before = (await emu.control('GET', '/state')).text
    const missing = await emu.control('POST', '/presets/no-such-thing')
    expect(missing.status).toBe(404)
    expect(missing.body.error).toBe('PRESET_NOT_FOUND')
    expect((await emu.control('GET', '/state')).text).toBe(before)
  })
})

describe('reset', () => {
  it('empties the data without a restart, keeping the signing keys', async () => {
    await emu.control('POST', '/presets/full-library')
    const jwksBefore = (await emu.request('GET', '/.well-known/jwks.json')).text
    await emu.control('PUT', '/clock', { offsetS: 3600 })
    const reset = await emu.control('POST', '/reset')
    expect(reset.body).toEqual({ ok: true, reset: true })
    const state = (await emu.control('GET', '/state')).body.state
    expect(state.developers).toEqual([])
    expect(state.licenses).toEqual([])
    expect((await emu.control('GET', '/clock')).body.offsetS).toBe(0)
    expect((await emu.request('GET', '/.well-known/jwks.json')).text).toBe(jwksBefore)
  })
})

describe('test clock', () => {
  it('moves by offset, absolute instant or advance, and refuses ambiguity', async () => {
    expect((await emu.control('PUT', '/clock', { offsetS: 86400 })).body.offsetS).toBe(86400)
    expect((await emu.control('PUT', '/clock', { advanceS: 60 })).body.offsetS).toBe(86460)
    const absolute = await emu.control('PUT', '/clock', { now: '2030-01-01T00:00:00.000Z' })
    expect(absolute.body.now.startsWith('2030-01-01T00:00:0')).toBe(true)
    expect((await emu.control('PUT', '/clock', { offsetS: 1, advanceS: 1 })).status).toBe(400)
    expect((await emu.control('PUT', '/clock', {})).status).toBe(400)
    expect((await emu.control('PUT', '/clock', { now: 'yesterday' })).status).toBe(400)
    await emu.control('PUT', '/clock', { offsetS: 0 })
  })

  it('a clock move expires a trial license and its license token', async () => {
    await emu.control('POST', '/presets/full-library')
    const plugin = demoPlugin()
    const trialKey = 'DEMO3-TRIAL-00000-00000-00003'
    const valid = await plugin.validate(trialKey, undefined, 'nonce-1')
    expect(valid.body.code).toBe('VALID')
    const token = valid.body.license_token as string
    const jwks = createLocalJWKSet((await emu.request('GET', '/.well-known/jwks.json')).body as never)
    const { payload } = await jwtVerify(token, jwks, { audience: PRESET_CREDENTIAL.appId })
    expect(payload.nonce).toBe('nonce-1')

    await emu.control('PUT', '/clock', { advanceS: 8 * 24 * 3600 })
    const now = new Date((await emu.control('GET', '/clock')).body.now)
    expect((await plugin.validate(trialKey)).body.code).toBe('TRIAL_EXPIRED')
    await expect(
      jwtVerify(token, jwks, { audience: PRESET_CREDENTIAL.appId, currentDate: now })
    ).rejects.toBeInstanceOf(errors.JWTExpired)

    // A token issued after the move carries the moved clock's iat.
    const later = await plugin.validate('DEMO1-PERPE-TUAL0-00000-00001')
    const movedNow = new Date((await emu.control('GET', '/clock')).body.now)
    const laterClaims = (
      await jwtVerify(later.body.license_token, jwks, { audience: PRESET_CREDENTIAL.appId, currentDate: movedNow })
    ).payload
    // Issued on the moved clock: eight days ahead of the system time, not now.
    expect(laterClaims.iat as number).toBeGreaterThan(Date.now() / 1000 + 7 * 24 * 3600)
    expect(laterClaims.iat as number).toBeLessThanOrEqual(movedNow.getTime() / 1000)
    await emu.control('PUT', '/clock', { offsetS: 0 })
  })
})
