import type { Store } from '../store/store'

/** One Ed25519 key per purpose: sessions (developer/customer JWTs) and signed license tokens. */
export type KeyPurpose = 'session' | 'license'

export interface SigningKeyRow {
  kid: string
  purpose: KeyPurpose
  public_jwk: string
  private_jwk: string
}

export interface SigningKeyRepository {
  byPurpose(purpose: KeyPurpose): SigningKeyRow | null
  /** Keeps the first key of a purpose: a second process opening the same file at the same moment does not replace it. */
  insertIfMissing(row: SigningKeyRow, createdAt: string): void
}

/** The signing key pairs (table signing_keys). */
export function createSigningKeyRepository(store: Store): SigningKeyRepository {
  const byPurpose = store.db.prepare('SELECT kid, purpose, public_jwk, private_jwk FROM signing_keys WHERE purpose = ?')
  const insert = store.db.prepare(
    `INSERT OR IGNORE INTO signing_keys (kid, purpose, alg, public_jwk, private_jwk, created_at)
     VALUES (?, ?, 'EdDSA', ?, ?, ?)`
  )
  return {
    byPurpose: (purpose) => (byPurpose.get(purpose) as SigningKeyRow | undefined) ?? null,
    insertIfMissing(row, createdAt) {
      insert.run(row.kid, row.purpose, row.public_jwk, row.private_jwk, createdAt)
    }
  }
}
