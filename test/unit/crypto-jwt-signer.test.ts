import { join } from 'node:path'
import { compactVerify, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { createJwtSigner } from '../../src/core/crypto/jwt-signer'
import { loadSigningKeys } from '../../src/core/crypto/signing-keys'
import type { SigningKey } from '../../src/core/crypto/signing-keys'
import { groupCompany } from '../../src/core/load/group-company'
import { openStore } from '../../src/core/store/store'
import type { Store } from '../../src/core/store/store'
import { makeTempDir } from '../support/temp-dir'

describe('the JWT signer (node:crypto, off the main thread)', () => {
  let dir: ReturnType<typeof makeTempDir>
  let store: Store
  let key: SigningKey

  beforeEach(async () => {
    dir = makeTempDir('jwt-signer')
    store = openStore({ path: join(dir.path, 'emulator.db') })
    key = (await loadSigningKeys(store, createClock())).get('license')
  })
  afterEach(() => {
    store.close()
    dir.remove()
  })

  const claims = {
    product_id: 'prod_1',
    license: { kind: 'perpetual', status: 'active', expires_at: null, max_activations: 2, activation_count: 1 },
    nonce: 'n-1'
  }
  const registered = {
    iss: 'issuer',
    aud: 'app_1',
    sub: 'lic_1',
    jti: 'jti-1',
    iat: 1_700_000_000,
    nbf: 1_700_000_000,
    exp: 1_700_086_400
  }

  it("makes the very token jose's SignJWT makes from the same header and claims (Ed25519 is deterministic)", async () => {
    const ours = await createJwtSigner(key, 'license+jwt')(claims, registered)
    const jose = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'license+jwt' })
      .setIssuer(registered.iss)
      .setAudience(registered.aud)
      .setSubject(registered.sub)
      .setJti(registered.jti)
      .setIssuedAt(registered.iat)
      .setNotBefore(registered.nbf)
      .setExpirationTime(registered.exp)
      .sign(key.privateKeyObject)
    expect(ours).toBe(jose)
  })

  it('makes the same token on the main thread (a lone call) as on the thread pool (a group of requests)', async () => {
    const sign = createJwtSigner(key, 'license+jwt')
    groupCompany.committed(1)
    const alone = sign(claims, registered)
    groupCompany.committed(3)
    const grouped = sign(claims, registered)
    groupCompany.committed(0)
    expect(await alone).toBe(await grouped)
    await expect(compactVerify(await grouped, key.publicKey)).resolves.toBeDefined()
  })

  it('signs tokens jose verifies with the public key, leaving out the optional claims it was not given', async () => {
    const { jti: _jti, nbf: _nbf, ...required } = registered
    const token = await createJwtSigner(key, 'JWT')({ scope: 'library' }, required)
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' })
    const { payload } = await jwtVerify(token, key.publicKey, {
      issuer: 'issuer',
      audience: 'app_1',
      currentDate: new Date(1_700_000_100_000)
    })
    expect(payload).toEqual({ scope: 'library', ...required })
  })

  it('makes a token that fails verification once a claim is changed', async () => {
    const token = await createJwtSigner(key, 'JWT')({}, registered)
    const [header, , signature] = token.split('.')
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...registered, sub: 'lic_2' })).toString('base64url')}.${signature}`
    await expect(jwtVerify(forged, key.publicKey, { currentDate: new Date(1_700_000_100_000) })).rejects.toThrow(
      /signature/
    )
  })
})
