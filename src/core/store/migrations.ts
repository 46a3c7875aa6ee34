/**
 * Versioned schema. Each entry moves the database from `version - 1` to `version`
 * (tracked in PRAGMA user_version). Never edit a released migration: add a new one.
 */
export interface Migration {
  version: number
  name: string
  sql: string
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'accounts and products',
    sql: `
      CREATE TABLE settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      );

      CREATE TABLE signing_keys (
        kid         TEXT PRIMARY KEY,
        purpose     TEXT NOT NULL CHECK (purpose IN ('session', 'license')),
        alg         TEXT NOT NULL,
        public_jwk  TEXT NOT NULL,
        private_jwk TEXT NOT NULL,
        created_at  TEXT NOT NULL
      );
      CREATE UNIQUE INDEX signing_keys_one_per_purpose ON signing_keys (purpose);

      CREATE TABLE developers (
        id         TEXT PRIMARY KEY,
        email      TEXT NOT NULL UNIQUE COLLATE NOCASE,
        name       TEXT,
        role       TEXT NOT NULL CHECK (role IN ('developer', 'admin')),
        created_at TEXT NOT NULL
      );

      CREATE TABLE products (
        id              TEXT PRIMARY KEY,
        developer_id    TEXT NOT NULL REFERENCES developers (id) ON DELETE CASCADE,
        name            TEXT NOT NULL,
        app_id          TEXT NOT NULL UNIQUE,
        storefront_slug TEXT,
        created_at      TEXT NOT NULL
      );
      CREATE INDEX products_by_developer ON products (developer_id, created_at);
    `
  },
  {
    version: 2,
    name: 'product credentials, audit trail and connection status',
    sql: `
      CREATE TABLE product_credentials (
        id                     TEXT PRIMARY KEY,
        seq                    INTEGER NOT NULL UNIQUE,
        product_id             TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        app_id                 TEXT NOT NULL,
        key_hash               TEXT NOT NULL UNIQUE,
        secret_hash            TEXT NOT NULL,
        key_preview            TEXT NOT NULL,
        secret_preview         TEXT NOT NULL,
        sealed_material        TEXT,
        status                 TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
        created_at             TEXT NOT NULL,
        created_by             TEXT,
        last_used_at           TEXT,
        rotated_from_id        TEXT REFERENCES product_credentials (id) ON DELETE SET NULL,
        replaced_by_id         TEXT REFERENCES product_credentials (id) ON DELETE SET NULL,
        revoked_at             TEXT,
        revoked_by             TEXT,
        revoked_reason         TEXT,
        revocation_cause       TEXT CHECK (revocation_cause IN ('revoke', 'rotate-key', 'rotate-secret')),
        secret_shown_once_at   TEXT,
        reveal_count           INTEGER NOT NULL DEFAULT 0,
        last_revealed_at       TEXT,
        last_revealed_by       TEXT
      );
      -- The contract's core invariant, held by the database itself.
      CREATE UNIQUE INDEX product_credentials_one_active
        ON product_credentials (product_id) WHERE status = 'active';
      CREATE INDEX product_credentials_by_product ON product_credentials (product_id, seq);

      CREATE TABLE credential_audit (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        product_id    TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        credential_id TEXT,
        action        TEXT NOT NULL,
        outcome       TEXT NOT NULL,
        actor_kind    TEXT NOT NULL,
        actor_id      TEXT,
        reason        TEXT,
        metadata      TEXT,
        at            TEXT NOT NULL
      );
      CREATE INDEX credential_audit_by_product ON credential_audit (product_id, id);

      CREATE TABLE connection_status (
        product_id         TEXT PRIMARY KEY REFERENCES products (id) ON DELETE CASCADE,
        last_status        TEXT NOT NULL CHECK (last_status IN ('verified', 'failed')),
        last_reason        TEXT,
        last_attempt_at    TEXT NOT NULL,
        last_verified_at   TEXT,
        last_credential_id TEXT,
        attempt_count      INTEGER NOT NULL,
        success_count      INTEGER NOT NULL,
        failure_count      INTEGER NOT NULL
      );
    `
  }
]

export const latestSchemaVersion = migrations.reduce((max, m) => Math.max(max, m.version), 0)
