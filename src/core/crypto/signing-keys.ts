import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose'
import type { CryptoKey, JWK } from 'jose'
import { createPrivateKey } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import type { Store } from '../store/store'
import type { Clock } from '../clock/clock'

/** One Ed25519 key per purpose: sessions (developer/customer JWTs) and signed license tokens. */
export type KeyPurpose = 'session' | 'license'

/** The public half of a key as published in the JWKS. */
export interface PublicJwk {
  kty: string
  crv: string
  x: string
  kid: string
  alg: 'EdDSA'
  use: 'sig'
}

export interface SigningKey {
  kid: string
  purpose: KeyPurpose
  alg: 'EdDSA'
  /** The private half as `node:crypto` signs with it (see jwt-signer.ts). */
  privateKeyObject: KeyObject
  /** The public half, for jose's verification. */
  publicKey: CryptoKey
  publicJwk: PublicJwk
}

export interface SigningKeyRing {
  get(purpose: KeyPurpose): SigningKey
  /** The public half of every key, as served at /.well-known/jwks.json. */
  jwks(): { keys: PublicJwk[] }
}

interface SigningKeyRow {
  kid: string
  purpose: KeyPurpose
  public_jwk: string
  private_jwk: string
}

const PURPOSES: readonly KeyPurpose[] = ['session', 'license']

/** Loads the key pairs kept in the database, making any that are missing (first run). */
export async function loadSigningKeys(store: Store, clock: Clock): Promise<SigningKeyRing> {
  const keys = new Map<KeyPurpose, SigningKey>()
  for (const purpose of PURPOSES) {
    let row = store.db.prepare('SELECT kid, purpose, public_jwk, private_jwk FROM signing_keys WHERE purpose = ?').get(purpose) as SigningKeyRow | undefined
    if (!row) {
      const made = await makeKeyRow(purpose)
      // INSERT OR IGNORE: a second process opening the same file at the same moment keeps the first key.
      store.db
        .prepare(
          `INSERT OR IGNORE INTO signing_keys (kid, purpose, alg, public_jwk, private_jwk, created_at)
           VALUES (?, ?, 'EdDSA', ?, ?, ?)`
        )
        .run(made.kid, purpose, made.public_jwk, made.private_jwk, clock.nowIso())
      row = store.db.prepare('SELECT kid, purpose, public_jwk, private_jwk FROM signing_keys WHERE purpose = ?').get(purpose) as SigningKeyRow
    }
    keys.set(purpose, await toSigningKey(row))
  }
  return {
    get(purpose) {
      const key = keys.get(purpose)
      if (!key) throw new Error(`No signing key for ${purpose}`)
      return key
    },
    jwks: () => ({ keys: [...keys.values()].map((key) => key.publicJwk) })
  }
}

async function makeKeyRow(purpose: KeyPurpose): Promise<SigningKeyRow> {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })
  const publicJwk = await exportJWK(pair.publicKey)
  const privateJwk = await exportJWK(pair.privateKey)
  const kid = await calculateJwkThumbprint(publicJwk)
  return {
    kid,
    purpose,
    public_jwk: JSON.stringify(publicJwk),
    private_jwk: JSON.stringify(privateJwk)
  }
}

async function toSigningKey(row: SigningKeyRow): Promise<SigningKey> {
  const publicJwk = JSON.parse(row.public_jwk) as JWK
  const privateJwk = JSON.parse(row.private_jwk) as JWK
  const publicKey = (await importJWK(publicJwk, 'EdDSA')) as CryptoKey
  return {
    kid: row.kid,
    purpose: row.purpose,
    alg: 'EdDSA',
    privateKeyObject: createPrivateKey({ key: privateJwk, format: 'jwk' }),
    publicKey,
    publicJwk: { kty: String(publicJwk.kty), crv: String(publicJwk.crv), x: String(publicJwk.x), kid: row.kid, alg: 'EdDSA', use: 'sig' }
  }
}
