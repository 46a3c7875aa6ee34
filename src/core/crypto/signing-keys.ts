import { createPrivateKey } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose'
import type { CryptoKey, JWK } from 'jose'

import type { Clock } from '../clock/clock'
import type { Store } from '../store/store'
import { createSigningKeyRepository } from './signing-key-repository'
import type { KeyPurpose, SigningKeyRow } from './signing-key-repository'

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

const PURPOSES: readonly KeyPurpose[] = ['session', 'license']

/** Loads the key pairs kept in the database, making any that are missing (first run). */
export async function loadSigningKeys(store: Store, clock: Clock): Promise<SigningKeyRing> {
  const rows = createSigningKeyRepository(store)
  // A second process opening the same file at the same moment keeps the first key: read back what was kept.
  const created = async (purpose: KeyPurpose): Promise<SigningKeyRow> => {
    rows.insertIfMissing(await makeKeyRow(purpose), clock.nowIso())
    const kept = rows.byPurpose(purpose)
    if (!kept) throw new Error(`The ${purpose} signing key was not stored.`)
    return kept
  }
  const keys = new Map<KeyPurpose, SigningKey>()
  for (const purpose of PURPOSES) {
    const row = rows.byPurpose(purpose) ?? (await created(purpose))
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
    publicJwk: {
      kty: String(publicJwk.kty),
      crv: String(publicJwk.crv),
      x: String(publicJwk.x),
      kid: row.kid,
      alg: 'EdDSA',
      use: 'sig'
    }
  }
}
