import { createLocalJWKSet, decodeProtectedHeader, errors, importSPKI, jwtVerify } from 'jose'
import type { JSONWebKeySet, JWTPayload } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { createCustomer, DAY_MS, epochSeconds, HOUR_MS, purchase } from '../support/commerce'
import { useEmulator, withEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

const TOKEN_LIFETIME_S = 24 * 60 * 60
const ISSUER = 'plugin-license-emulator'

// The signed license token (docs/api.md section 5): EdDSA JWS, kid, typ license+jwt, aud = App ID, sub = license id,
// nonce echoed, exp apart from the license's own expiry; keys at /.well-known/jwks.json and /api/license/v1/public-key.
describe('license_token', () => {
  const base = Date.parse('2037-03-03T03:03:03.000Z')
  const clock = createClock(() => base)
  let product: PluginCredential
  let customerId: string
  let jwks: JSONWebKeySet
  let publicKey: Record<string, any>

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    product = await productWithCredential(emu, 'Token Tape')
    customerId = (await createCustomer(emu)).id
    const keySet = await emu.request('GET', '/.well-known/jwks.json')
    expect(keySet.status).toBe(200)
    jwks = { keys: keySet.body.keys }
    const pk = await emu.request('GET', '/api/license/v1/public-key')
    expect(pk.status).toBe(200)
    publicKey = pk.body
  })

  const emulatorNow = () => clock.now()
  const verifyWithJwks = (token: string, currentDate = emulatorNow()) =>
    jwtVerify(token, createLocalJWKSet(jwks), {
      audience: product.appId,
      issuer: ISSUER,
      typ: 'license+jwt',
      algorithms: ['EdDSA'],
      currentDate
    })

  async function activatedToken(
    options: { expiresAt?: string; nonce?: string } = {}
  ): Promise<{ token: string; licenseId: string; licenseKey: string }> {
    const bought = await purchase(
      emu,
      customerId,
      product.productId,
      options.expiresAt ? { expiresAt: options.expiresAt } : {}
    )
    const activated = await pluginClient(emu, product).activate(
      bought.license.key,
      'token-machine',
      options.nonce ? { nonce: options.nonce } : {}
    )
    expect(activated.status, activated.text).toBe(201)
    return {
      token: activated.body.license_token as string,
      licenseId: bought.license.id,
      licenseKey: bought.license.key
    }
  }

  it('verifies against the JWKS: EdDSA, typ license+jwt, a kid of the set, aud = App ID, sub = license id, nonce echoed', async () => {
    const { token, licenseId } = await activatedToken({ nonce: 'nonce-7f3a' })
    const { payload, protectedHeader } = await verifyWithJwks(token)
    expect(protectedHeader.alg).toBe('EdDSA')
    expect(protectedHeader.typ).toBe('license+jwt')
    expect(jwks.keys.map((k) => k.kid)).toContain(protectedHeader.kid)
    expect(protectedHeader.kid).toBe(publicKey.kid)
    expect(payload.aud).toBe(product.appId)
    expect(payload.aud).not.toBe(product.productId)
    expect(payload.sub).toBe(licenseId)
    expect(payload.iss).toBe(ISSUER)
    expect(payload.nonce).toBe('nonce-7f3a')
    expect(payload.instance_id).toBe('token-machine')
    expect(payload.product_id).toBe(product.productId)
  })

  it('verifies against GET /api/license/v1/public-key: the PEM, and the raw hex equal to the JWK x', async () => {
    const { token, licenseId } = await activatedToken()
    expect(publicKey).toMatchObject({ ok: true, alg: 'EdDSA', crv: 'Ed25519', typ: 'license+jwt', issuer: ISSUER })
    expect(publicKey.public_key_pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/)
    const key = await importSPKI(publicKey.public_key_pem as string, 'EdDSA')
    const { payload } = await jwtVerify(token, key, {
      audience: product.appId,
      issuer: ISSUER,
      typ: 'license+jwt',
      currentDate: emulatorNow()
    })
    expect(payload.sub).toBe(licenseId)

    expect(publicKey.public_key_hex).toMatch(/^[0-9a-f]{64}$/)
    const jwk = jwks.keys.find((k) => k.kid === publicKey.kid)
    expect(jwk).toBeDefined()
    expect(Buffer.from(jwk?.x ?? '', 'base64url').toString('hex')).toBe(publicKey.public_key_hex)
    expect(publicKey.jwk.x).toBe(jwk?.x)
  })

  it('does not verify for another App ID, or with another key', async () => {
    const { token } = await activatedToken()
    await expect(
      jwtVerify(token, createLocalJWKSet(jwks), { audience: 'app_someoneelse', currentDate: emulatorNow() })
    ).rejects.toBeInstanceOf(errors.JWTClaimValidationFailed)
    await withEmulator(async (other) => {
      const otherKeys = (await other.request('GET', '/.well-known/jwks.json')).body.keys
      const foreignPem = (await other.request('GET', '/api/license/v1/public-key')).body.public_key_pem as string
      await expect(
        jwtVerify(token, await importSPKI(foreignPem, 'EdDSA'), { currentDate: emulatorNow() })
      ).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed)
      await expect(
        jwtVerify(token, createLocalJWKSet({ keys: otherKeys }), { currentDate: emulatorNow() })
      ).rejects.toThrow()
    })
  })

  it('iat follows the emulator clock, and exp is iat + the token lifetime', async () => {
    clock.setOffsetMs(3 * DAY_MS)
    try {
      const { token } = await activatedToken()
      const { payload } = await verifyWithJwks(token)
      expect(payload.iat).toBe(epochSeconds(new Date(base + 3 * DAY_MS)))
      expect(payload.exp).toBe((payload.iat as number) + TOKEN_LIFETIME_S)
    } finally {
      clock.setOffsetMs(0)
    }
  })

  it("a perpetual license's token still has an exp, and its license claim has no expiry", async () => {
    const { token } = await activatedToken()
    const { payload } = await verifyWithJwks(token)
    expect(payload.exp).toBe(epochSeconds(new Date(base)) + TOKEN_LIFETIME_S)
    expect((payload.license as Record<string, unknown>).expires_at).toBeNull()
    expect(payload.license).toMatchObject({ kind: 'perpetual', status: 'active', activation_count: 1 })
  })

  it('a license expiring in 1 hour still gets a 24-hour token, whose license.expires_at says 1 hour', async () => {
    const licenseExpiry = new Date(base + HOUR_MS).toISOString()
    const { token } = await activatedToken({ expiresAt: licenseExpiry })
    const { payload } = await verifyWithJwks(token)
    expect(payload.exp).toBe(epochSeconds(new Date(base)) + TOKEN_LIFETIME_S)
    expect((payload.license as Record<string, unknown>).expires_at).toBe(licenseExpiry)
  })

  it('a subscription token carries the period end as license.expires_at', async () => {
    const bought = await purchase(emu, customerId, product.productId, { kind: 'subscription' })
    const result = await pluginClient(emu, product).validate(bought.license.key, undefined, 'sub-nonce')
    const { payload } = await verifyWithJwks(result.body.license_token)
    expect((payload.license as Record<string, unknown>).expires_at).toBe(bought.subscription?.currentPeriodEnd)
    expect(payload.nonce).toBe('sub-nonce')
    expect(payload.exp).toBe(epochSeconds(new Date(base)) + TOKEN_LIFETIME_S)
  })

  it('validate signs a token too, echoing its own nonce; no nonce sent, no nonce claim', async () => {
    const { licenseKey } = await activatedToken({ nonce: 'activation-nonce' })
    const withNonce = await pluginClient(emu, product).validate(licenseKey, 'token-machine', 'validate-nonce')
    expect((await verifyWithJwks(withNonce.body.license_token)).payload.nonce).toBe('validate-nonce')
    const without = await pluginClient(emu, product).validate(licenseKey, 'token-machine')
    const payload: JWTPayload = (await verifyWithJwks(without.body.license_token)).payload
    expect(payload.nonce).toBeUndefined()
    expect(payload.jti).not.toBe((await verifyWithJwks(withNonce.body.license_token)).payload.jti)
  })

  it("after the clock passes the token's exp, verification at the emulator's now fails with JWTExpired", async () => {
    const { token } = await activatedToken()
    const { payload } = await verifyWithJwks(token)
    expect(decodeProtectedHeader(token).typ).toBe('license+jwt')
    clock.setOffsetMs(((payload.exp as number) + 60) * 1000 - base)
    try {
      await expect(verifyWithJwks(token)).rejects.toBeInstanceOf(errors.JWTExpired)
      const key = await importSPKI(publicKey.public_key_pem as string, 'EdDSA')
      await expect(jwtVerify(token, key, { currentDate: emulatorNow() })).rejects.toBeInstanceOf(errors.JWTExpired)
    } finally {
      clock.setOffsetMs(0)
    }
    // Still good just before.
    clock.setOffsetMs(((payload.exp as number) - 60) * 1000 - base)
    try {
      await expect(verifyWithJwks(token)).resolves.toBeDefined()
    } finally {
      clock.setOffsetMs(0)
    }
  })
})
