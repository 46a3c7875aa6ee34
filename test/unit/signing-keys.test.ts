import { importJWK, jwtVerify, SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { loadSigningKeys } from '../../src/core/crypto/signing-keys'
import { useStoreFile } from '../support/store-file'

describe('signing keys kept in the database', () => {
  const storeFile = useStoreFile('signing-keys')
  const { open } = storeFile

  it('makes one Ed25519 key per purpose on first run', async () => {
    const store = open()
    expect(store.db.prepare('SELECT count(*) FROM signing_keys').pluck().get()).toBe(0)
    const ring = await loadSigningKeys(store, createClock())
    const rows = store.db.prepare('SELECT purpose, alg FROM signing_keys ORDER BY purpose').all()
    expect(rows).toEqual([
      { purpose: 'license', alg: 'EdDSA' },
      { purpose: 'session', alg: 'EdDSA' }
    ])
    expect(ring.get('session').kid).not.toBe(ring.get('license').kid)
  })

  it('returns the same keys after the file is closed and reopened', async () => {
    const first = open()
    const before = await loadSigningKeys(first, createClock())
    const sessionKid = before.get('session').kid
    const licenseKid = before.get('license').kid
    const token = await new SignJWT({ sub: 'lic_1' })
      .setProtectedHeader({ alg: 'EdDSA', kid: licenseKid })
      .sign(before.get('license').privateKeyObject)
    first.close()

    const second = open()
    const after = await loadSigningKeys(second, createClock())
    expect(after.get('session').kid).toBe(sessionKid)
    expect(after.get('license').kid).toBe(licenseKid)
    expect(second.db.prepare('SELECT count(*) FROM signing_keys').pluck().get()).toBe(2)

    // A token signed before the restart verifies against the JWKS published after it.
    const published = after.jwks().keys.find((key) => key.kid === licenseKid)
    expect(published).toBeDefined()
    const verified = await jwtVerify(token, await importJWK(published!, 'EdDSA'))
    expect(verified.payload.sub).toBe('lic_1')
  })

  it('keeps a separate set of keys per database file', async () => {
    const a = await loadSigningKeys(open(), createClock())
    const b = await loadSigningKeys(open({ path: storeFile.pathOf('other.db') }), createClock())
    expect(b.get('license').kid).not.toBe(a.get('license').kid)
  })

  it('publishes only public Ed25519 keys in the JWKS', async () => {
    const ring = await loadSigningKeys(open(), createClock())
    const { keys } = ring.jwks()
    expect(keys).toHaveLength(2)
    for (const key of keys) {
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' })
      expect(key).not.toHaveProperty('d')
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x'])
      // x is a 32-byte public key in base64url.
      expect(Buffer.from(key.x, 'base64url')).toHaveLength(32)
    }
    expect(new Set(keys.map((key) => key.kid))).toEqual(new Set([ring.get('session').kid, ring.get('license').kid]))
    expect(JSON.stringify(ring.jwks())).not.toContain('"d"')
  })

  it('signs with a private key that matches the published public key', async () => {
    const ring = await loadSigningKeys(open(), createClock())
    const key = ring.get('session')
    const token = await new SignJWT({ role: 'developer' })
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
      .sign(key.privateKeyObject)
    const other = ring.get('license')
    await expect(jwtVerify(token, other.publicKey)).rejects.toThrow()
    await expect(jwtVerify(token, key.publicKey)).resolves.toBeDefined()
  })
})
