import { sign } from 'node:crypto'

import { groupCompany } from '../load/group-company'
import type { SigningKey } from './signing-keys'

/** Registered claims in the order jose's SignJWT appends them, so a token is byte-identical to jose's. */
export interface RegisteredClaims {
  iss: string
  aud: string
  sub: string
  jti?: string | undefined
  iat: number
  nbf?: number | undefined
  exp: number
}

export type JwtType = 'JWT' | 'license+jwt'

export type JwtSigner = (claims: Record<string, unknown>, registered: RegisteredClaims) => Promise<string>

/**
 * Makes a signer of compact JWS tokens (EdDSA over Ed25519) with `node:crypto`'s one-shot sign in its callback form,
 * so the signature itself runs on libuv's thread pool. jose's SignJWT goes through WebCrypto, whose
 * argument checking costs three times as much main-thread time per token (measured: 46 against 14 us),
 * and a licensing server signs on every VALID answer. Ed25519 is deterministic: for the same header
 * and claims the token equals jose's to the byte (the unit test holds it to that), and jose still
 * verifies every token.
 *
 * A request that was alone in its group commit (src/core/load/group-company.ts) signs on the main
 * thread instead: the hop to the thread pool and back costs a lone call more CPU and wall time than
 * the signature itself (measured: 169 against 97 us a token in a sequential loop). Under load the
 * pool signs while the main thread answers the others.
 */
export function createJwtSigner(key: SigningKey, typ: JwtType): JwtSigner {
  // The same for every token of this key and type: encoded once.
  const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: key.kid, typ })).toString('base64url')
  return (claims, registered) => {
    const payload: Record<string, unknown> = {
      ...claims,
      iss: registered.iss,
      aud: registered.aud,
      sub: registered.sub
    }
    if (registered.jti !== undefined) payload.jti = registered.jti
    payload.iat = registered.iat
    if (registered.nbf !== undefined) payload.nbf = registered.nbf
    payload.exp = registered.exp
    const signingInput = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`
    if (groupCompany.alone()) {
      // A throw in the executor rejects, as the callback's error does below.
      return new Promise((resolve) => {
        resolve(`${signingInput}.${sign(null, Buffer.from(signingInput), key.privateKeyObject).toString('base64url')}`)
      })
    }
    return new Promise((resolve, reject) => {
      sign(null, Buffer.from(signingInput), key.privateKeyObject, (error, signature) => {
        if (error) reject(error)
        else resolve(`${signingInput}.${signature.toString('base64url')}`)
      })
    })
  }
}
