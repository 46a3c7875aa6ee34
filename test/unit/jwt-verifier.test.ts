import { errors, generateKeyPair, SignJWT } from 'jose'
import type { CryptoKey } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'

import { createJwtVerifier } from '../../src/core/crypto/jwt-verifier'

const ISSUER = 'plugin-license-emulator'
const NOW_S = 1_800_000_000
const at = (s: number) => new Date(s * 1000)

let privateKey: CryptoKey
let publicKey: CryptoKey

beforeAll(async () => {
  ;({ privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' }))
})

const token = (audience: string, expS: number, subject = 'dev_1') =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setSubject(subject)
    .setIssuedAt(NOW_S)
    .setExpirationTime(expS)
    .sign(privateKey)

const request = (audience: string, nowS: number) => ({
  issuer: ISSUER,
  audience,
  algorithms: ['EdDSA'],
  currentDate: at(nowS)
})

describe('the verifier of the emulator’s own session and library tokens', () => {
  it('answers a token it verified from memory: the same payload, frozen', async () => {
    const verify = createJwtVerifier(publicKey)
    const jwt = await token('developer', NOW_S + 60)
    const first = await verify(jwt, request('developer', NOW_S))
    expect(first.sub).toBe('dev_1')
    expect(Object.isFrozen(first)).toBe(true)
    expect(await verify(jwt, request('developer', NOW_S + 1))).toBe(first)
  })

  it('judges expiry against the clock it is given on every call, remembered or not', async () => {
    const verify = createJwtVerifier(publicKey)
    const jwt = await token('developer', NOW_S + 60)
    await verify(jwt, request('developer', NOW_S))
    await expect(verify(jwt, request('developer', NOW_S + 60))).rejects.toBeInstanceOf(errors.JWTExpired)
    // The clock moved back: valid again, as jose judges it.
    expect((await verify(jwt, request('developer', NOW_S))).sub).toBe('dev_1')
  })

  it('never lets a token verified for one audience pass for another', async () => {
    const verify = createJwtVerifier(publicKey)
    const jwt = await token('customer', NOW_S + 60)
    await verify(jwt, request('customer', NOW_S))
    await expect(verify(jwt, request('developer', NOW_S))).rejects.toBeInstanceOf(errors.JWTClaimValidationFailed)
  })

  it('refuses a changed token even after verifying the original', async () => {
    const verify = createJwtVerifier(publicKey)
    const jwt = await token('developer', NOW_S + 60)
    await verify(jwt, request('developer', NOW_S))
    const [header, , signature] = jwt.split('.')
    const forged = `${header}.${Buffer.from(JSON.stringify({ iss: ISSUER, aud: 'developer', sub: 'dev_admin', exp: NOW_S + 60 })).toString('base64url')}.${signature}`
    await expect(verify(forged, request('developer', NOW_S))).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed
    )
  })

  it('keeps at most the given number of tokens, forgetting the oldest', async () => {
    const verify = createJwtVerifier(publicKey, 1)
    const one = await token('developer', NOW_S + 60, 'dev_1')
    const two = await token('developer', NOW_S + 60, 'dev_2')
    const first = await verify(one, request('developer', NOW_S))
    await verify(two, request('developer', NOW_S))
    const again = await verify(one, request('developer', NOW_S))
    expect(again).toEqual(first)
    expect(again).not.toBe(first)
  })
})
