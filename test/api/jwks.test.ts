import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import type { JSONWebKeySet } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'

import { useEmulator, withEmulator } from '../support/emulator'
import { EMULATOR_ISSUER } from '../support/tokens'

// GET /.well-known/jwks.json: Ed25519 public keys with kid; developer JWTs verify against it offline.
describe('JWKS', () => {
  let jwks: JSONWebKeySet
  const emulator = useEmulator()
  beforeAll(async () => {
    const result = await emulator.request('GET', '/.well-known/jwks.json')
    expect(result.status).toBe(200)
    jwks = { keys: result.body.keys }
  })

  it('publishes Ed25519 public keys with a kid each, and no private part', () => {
    expect(jwks.keys.length).toBeGreaterThan(0)
    for (const key of jwks.keys) {
      expect(key).toMatchObject({
        kty: 'OKP',
        crv: 'Ed25519',
        alg: 'EdDSA',
        kid: expect.any(String),
        x: expect.any(String)
      })
      expect(key).not.toHaveProperty('d')
    }
    expect(new Set(jwks.keys.map((key) => key.kid)).size).toBe(jwks.keys.length)
  })

  it('verifies a developer JWT from the control plane with jose and createLocalJWKSet', async () => {
    const developer = await emulator.createDeveloper({ role: 'admin' })
    const { kid, alg } = decodeProtectedHeader(developer.token)
    expect(alg).toBe('EdDSA')
    expect(jwks.keys.map((key) => key.kid)).toContain(kid)
    const { payload } = await jwtVerify(developer.token, createLocalJWKSet(jwks), {
      issuer: EMULATOR_ISSUER,
      audience: 'developer'
    })
    expect(payload.sub).toBe(developer.id)
    expect(payload.role).toBe('admin')
    expect(typeof payload.exp).toBe('number')
  })

  it('does not verify a token whose payload was changed', async () => {
    const developer = await emulator.createDeveloper()
    const [header, payload, signature] = developer.token.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url')}.${signature}`
    await expect(jwtVerify(forged, createLocalJWKSet(jwks))).rejects.toThrow()
  })

  it('keeps the same keys across a restart on the same database', async () => {
    await withEmulator({ databasePath: emulator.databasePath }, async (second) => {
      const again = await second.request('GET', '/.well-known/jwks.json')
      expect(again.body.keys).toEqual(jwks.keys)
    })
  })
})
