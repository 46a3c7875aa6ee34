import { generateKeyPairSync } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import { CompactSign } from 'jose'
import { describe, expect, it } from 'vitest'

import { jwsVerifierOf } from '../../src/core/drift/jws-verifier'

/** A compact JWS signed by jose (the reference) with `privateKey`, split as the verifier takes it. */
async function signed(alg: string, privateKey: KeyObject): Promise<[string, Buffer]> {
  const token = await new CompactSign(new TextEncoder().encode('{"sub":"lic_1"}'))
    .setProtectedHeader({ alg })
    .sign(privateKey)
  const end = token.lastIndexOf('.')
  return [token.slice(0, end), Buffer.from(token.slice(end + 1), 'base64url')]
}

const jwkOf = (key: KeyObject, alg?: string) => ({
  ...(key.export({ format: 'jwk' }) as Record<string, unknown>),
  ...(alg ? { alg } : {})
})

const pairs = {
  EdDSA: generateKeyPairSync('ed25519'),
  ES256: generateKeyPairSync('ec', { namedCurve: 'P-256' }),
  ES384: generateKeyPairSync('ec', { namedCurve: 'P-384' }),
  RS256: generateKeyPairSync('rsa', { modulusLength: 2048 }),
  PS256: generateKeyPairSync('rsa', { modulusLength: 2048 })
}

describe('the drift check verifying an upstream license token with node:crypto', () => {
  it.each(Object.keys(pairs) as (keyof typeof pairs)[])(
    'verifies a %s token jose signed, and not a changed one',
    async (alg) => {
      const { privateKey, publicKey } = pairs[alg]
      const [input, signature] = await signed(alg, privateKey)
      const verify = jwsVerifierOf(jwkOf(publicKey))
      expect(await verify(alg, input, signature)).toBe(true)
      expect(await verify(alg, `${input}x`, signature)).toBe(false)
    }
  )

  it("refuses a header's alg the key cannot verify, or that its JWK's alg does not name", async () => {
    const [input, signature] = await signed('ES256', pairs.ES256.privateKey)
    expect(await jwsVerifierOf(jwkOf(pairs.ES256.publicKey))('ES384', input, signature)).toBe(false)
    expect(await jwsVerifierOf(jwkOf(pairs.ES256.publicKey))(undefined, input, signature)).toBe(false)
    expect(await jwsVerifierOf(jwkOf(pairs.ES256.publicKey))('HS256', input, signature)).toBe(false)
    expect(await jwsVerifierOf(jwkOf(pairs.ES256.publicKey, 'ES384'))('ES256', input, signature)).toBe(false)
    const [edInput, edSignature] = await signed('EdDSA', pairs.EdDSA.privateKey)
    expect(await jwsVerifierOf(jwkOf(pairs.RS256.publicKey))('EdDSA', edInput, edSignature)).toBe(false)
  })

  it('never uses more than the public half of a JWK that carries a private one', async () => {
    const [input, signature] = await signed('EdDSA', pairs.EdDSA.privateKey)
    expect(await jwsVerifierOf(jwkOf(pairs.EdDSA.privateKey))('EdDSA', input, signature)).toBe(true)
  })

  it('refuses an RSA key shorter than 2048 bits, as jose does', async () => {
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 })
    const token = `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from('{}').toString('base64url')}`
    const { sign } = await import('node:crypto')
    const signature = sign('sha256', Buffer.from(token), short.privateKey)
    expect(await jwsVerifierOf(jwkOf(short.publicKey))('RS256', token, signature)).toBe(false)
  })

  it.each(['EdDSA', 'ES256', 'RS256'] as const)(
    'answers false, never throws, for a %s signature of the wrong size (empty, a few bytes, all zeros)',
    async (alg) => {
      const [input, signature] = await signed(alg, pairs[alg].privateKey)
      const verify = jwsVerifierOf(jwkOf(pairs[alg].publicKey))
      for (const wrong of [Buffer.alloc(0), signature.subarray(0, 3), Buffer.alloc(signature.length)])
        await expect(verify(alg, input, wrong)).resolves.toBe(false)
      await expect(verify(alg, input, signature)).resolves.toBe(true)
    }
  )

  it('throws for a JWK that is no key', () => {
    expect(() => jwsVerifierOf({ kty: 'OKP', crv: 'Ed25519' })).toThrow()
    expect(() => jwsVerifierOf({ x: 'abc' })).toThrow()
  })
})
