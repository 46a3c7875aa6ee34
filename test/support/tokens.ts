import { generateKeyPair, importJWK, SignJWT, UnsecuredJWT } from 'jose'
import type { CryptoKey, JWK } from 'jose'

import { withReadOnlyDatabase } from './database'

/** Issuer of the emulator's session tokens (src/core/accounts/session-tokens.ts). */
export const EMULATOR_ISSUER = 'plugin-license-emulator'

export interface TokenClaims {
  issuer?: string | undefined
  audience?: string | undefined
  subject?: string | undefined
  /** Seconds since the epoch. */
  expiresAt?: number | undefined
}

const nowS = (): number => Math.floor(Date.now() / 1000)

/** The emulator's own session signing key, read from its SQLite file: to forge tokens that differ in one claim only. */
export async function emulatorSessionKey(databasePath: string): Promise<{ kid: string; privateKey: CryptoKey }> {
  const row = withReadOnlyDatabase(databasePath, (db) =>
    db.prepare("SELECT kid, private_jwk FROM signing_keys WHERE purpose = 'session'").get()
  ) as {
    kid: string
    private_jwk: string
  }
  return { kid: row.kid, privateKey: (await importJWK(JSON.parse(row.private_jwk) as JWK, 'EdDSA')) as CryptoKey }
}

/** A fresh Ed25519 key the emulator has never seen. */
export async function foreignSessionKey(): Promise<{ kid: string; privateKey: CryptoKey }> {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
  return { kid: 'foreign-key', privateKey: pair.privateKey }
}

export async function signToken(
  key: { kid: string; privateKey: CryptoKey },
  claims: TokenClaims = {}
): Promise<string> {
  let jwt = new SignJWT({ role: 'developer' })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(claims.expiresAt ?? nowS() + 3600)
  if (claims.issuer !== undefined) jwt = jwt.setIssuer(claims.issuer)
  if (claims.audience !== undefined) jwt = jwt.setAudience(claims.audience)
  if (claims.subject !== undefined) jwt = jwt.setSubject(claims.subject)
  return jwt.sign(key.privateKey)
}

/** An `alg: none` token carrying otherwise valid claims. */
export function unsignedToken(claims: Required<Pick<TokenClaims, 'subject'>>): string {
  return new UnsecuredJWT({ role: 'admin' })
    .setIssuer(EMULATOR_ISSUER)
    .setAudience('developer')
    .setSubject(claims.subject)
    .setIssuedAt()
    .setExpirationTime(nowS() + 3600)
    .encode()
}
