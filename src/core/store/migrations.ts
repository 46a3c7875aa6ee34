/**
 * Versioned schema. Each entry moves the database from `version - 1` to `version`
 * (tracked in PRAGMA user_version). Never edit a released migration: add a new one.
 */
export interface Migration {
  version: number
  name: string
  sql: string
  /**
   * The migration rebuilds a table other tables reference (SQLite cannot change a CHECK in
   * place): it runs with foreign keys off, so dropping the old table cascades to nothing, and
   * the references are checked before it commits.
   */
  rebuildsTables?: true
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
  },
  {
    version: 3,
    name: 'customers, commerce, entitlements, licensing and downloads',
    sql: `
      ALTER TABLE products ADD COLUMN support_email TEXT;

      CREATE TABLE storefronts (
        slug       TEXT PRIMARY KEY,
        name       TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE customers (
        id           TEXT PRIMARY KEY,
        user_id      TEXT NOT NULL UNIQUE,
        email        TEXT NOT NULL UNIQUE COLLATE NOCASE,
        name         TEXT,
        country      TEXT,
        locale       TEXT,
        developer_id TEXT UNIQUE REFERENCES developers (id) ON DELETE SET NULL,
        created_at   TEXT NOT NULL
      );

      CREATE TABLE marketing_preferences (
        customer_id     TEXT PRIMARY KEY REFERENCES customers (id) ON DELETE CASCADE,
        newsletter      INTEGER NOT NULL DEFAULT 0,
        product_updates INTEGER NOT NULL DEFAULT 1,
        updated_at      TEXT NOT NULL
      );

      CREATE TABLE orders (
        id              TEXT PRIMARY KEY,
        customer_id     TEXT REFERENCES customers (id) ON DELETE CASCADE,
        channel         TEXT NOT NULL CHECK (channel IN ('direct', 'reseller')),
        reseller        TEXT,
        storefront_slug TEXT,
        status          TEXT NOT NULL CHECK (status IN ('paid', 'refunded')),
        currency        TEXT NOT NULL,
        total_cents     INTEGER NOT NULL,
        created_at      TEXT NOT NULL
      );
      CREATE INDEX orders_by_customer ON orders (customer_id, created_at);

      CREATE TABLE order_items (
        id                     TEXT PRIMARY KEY,
        order_id               TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        product_id             TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        kind                   TEXT NOT NULL CHECK (kind IN ('perpetual', 'subscription', 'trial')),
        unit_price_cents       INTEGER NOT NULL,
        claim_token_hash       TEXT UNIQUE,
        claimed_by_customer_id TEXT REFERENCES customers (id) ON DELETE SET NULL,
        claimed_at             TEXT
      );
      CREATE INDEX order_items_by_order ON order_items (order_id);

      CREATE TABLE subscriptions (
        id                   TEXT PRIMARY KEY,
        customer_id          TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
        product_id           TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        plan                 TEXT NOT NULL CHECK (plan IN ('monthly', 'yearly')),
        status               TEXT NOT NULL CHECK (status IN ('active', 'canceled', 'past_due')),
        current_period_end   TEXT NOT NULL,
        cancel_at_period_end INTEGER NOT NULL DEFAULT 0,
        canceled_at          TEXT,
        created_at           TEXT NOT NULL
      );
      CREATE INDEX subscriptions_by_customer ON subscriptions (customer_id);

      CREATE TABLE entitlements (
        id            TEXT PRIMARY KEY,
        customer_id   TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
        product_id    TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        order_item_id TEXT REFERENCES order_items (id) ON DELETE SET NULL,
        source        TEXT NOT NULL CHECK (source IN ('purchase', 'subscription', 'trial', 'reseller_claim')),
        status        TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
        created_at    TEXT NOT NULL
      );
      CREATE INDEX entitlements_by_customer ON entitlements (customer_id, product_id);

      CREATE TABLE licenses (
        id              TEXT PRIMARY KEY,
        license_key     TEXT NOT NULL UNIQUE,
        customer_id     TEXT NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
        product_id      TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        entitlement_id  TEXT REFERENCES entitlements (id) ON DELETE SET NULL,
        subscription_id TEXT REFERENCES subscriptions (id) ON DELETE SET NULL,
        kind            TEXT NOT NULL CHECK (kind IN ('perpetual', 'subscription', 'trial')),
        status          TEXT NOT NULL CHECK (status IN ('active', 'suspended', 'revoked')),
        expires_at      TEXT,
        max_activations INTEGER NOT NULL CHECK (max_activations >= 0),
        created_at      TEXT NOT NULL
      );
      CREATE INDEX licenses_by_customer ON licenses (customer_id);
      CREATE INDEX licenses_by_product ON licenses (product_id);

      CREATE TABLE activations (
        id             TEXT PRIMARY KEY,
        license_id     TEXT NOT NULL REFERENCES licenses (id) ON DELETE CASCADE,
        instance_id    TEXT NOT NULL,
        instance_name  TEXT,
        platform       TEXT,
        app_version    TEXT,
        first_seen_at  TEXT NOT NULL,
        last_seen_at   TEXT NOT NULL,
        deactivated_at TEXT
      );
      -- One live activation per machine and license: activation is idempotent per instance.
      CREATE UNIQUE INDEX activations_one_live_per_instance
        ON activations (license_id, instance_id) WHERE deactivated_at IS NULL;
      CREATE INDEX activations_by_license ON activations (license_id);

      CREATE TABLE product_files (
        id         TEXT PRIMARY KEY,
        product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
        version    TEXT NOT NULL,
        platform   TEXT NOT NULL CHECK (platform IN ('windows', 'macos', 'linux')),
        filename   TEXT NOT NULL,
        size_bytes INTEGER NOT NULL CHECK (size_bytes >= 0),
        created_at TEXT NOT NULL
      );
      CREATE INDEX product_files_by_product ON product_files (product_id);
    `
  },
  {
    version: 4,
    name: 'request inspector ring',
    sql: `
      CREATE TABLE request_log (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        at            TEXT NOT NULL,
        surface       TEXT NOT NULL,
        method        TEXT NOT NULL,
        path          TEXT NOT NULL,
        status        INTEGER NOT NULL,
        duration_ms   REAL NOT NULL,
        auth_kind     TEXT NOT NULL,
        product_id    TEXT,
        request_json  TEXT NOT NULL,
        response_json TEXT NOT NULL
      );
      CREATE INDEX request_log_by_surface ON request_log (surface, id);
      CREATE INDEX request_log_by_product ON request_log (product_id, id);
    `
  },
  {
    version: 5,
    name: 'which runtime key sealed each credential secret',
    // Rows sealed before this version have no key id; the server fills it in at start for
    // those its current key opens, and leaves the others unrecoverable.
    sql: `
      ALTER TABLE product_credentials ADD COLUMN sealed_key_id TEXT;
    `
  },
  {
    version: 6,
    name: 'subscription payment failures',
    // A failed payment makes a subscription past_due from this instant; its grace period
    // (a runtime setting) is counted from here.
    sql: `
      ALTER TABLE subscriptions ADD COLUMN payment_failed_at TEXT;
    `
  },
  {
    version: 7,
    name: 'request log: who sent it, its error code, the fault rule that fired',
    // Written in the log's batches, off the request path. Older rows came from clients and
    // have no code or fault recorded.
    sql: `
      ALTER TABLE request_log ADD COLUMN source TEXT NOT NULL DEFAULT 'client';
      ALTER TABLE request_log ADD COLUMN error_code TEXT;
      ALTER TABLE request_log ADD COLUMN fault_rule_id TEXT;
      ALTER TABLE request_log ADD COLUMN fault_kind TEXT;
      ALTER TABLE request_log ADD COLUMN fault_label TEXT;
    `
  },
  {
    version: 8,
    name: 'orders: refunds and chargebacks',
    // A chargeback is an order status of its own (the bank took the money back, not the vendor),
    // and both record when: the CHECK changes, so the table is rebuilt (SQLite's documented way).
    rebuildsTables: true,
    sql: `
      CREATE TABLE orders_v8 (
        id              TEXT PRIMARY KEY,
        customer_id     TEXT REFERENCES customers (id) ON DELETE CASCADE,
        channel         TEXT NOT NULL CHECK (channel IN ('direct', 'reseller')),
        reseller        TEXT,
        storefront_slug TEXT,
        status          TEXT NOT NULL CHECK (status IN ('paid', 'refunded', 'chargeback')),
        currency        TEXT NOT NULL,
        total_cents     INTEGER NOT NULL,
        created_at      TEXT NOT NULL,
        reversed_at     TEXT
      );
      INSERT INTO orders_v8 (id, customer_id, channel, reseller, storefront_slug, status, currency, total_cents, created_at)
        SELECT id, customer_id, channel, reseller, storefront_slug, status, currency, total_cents, created_at FROM orders;
      DROP TABLE orders;
      ALTER TABLE orders_v8 RENAME TO orders;
      CREATE INDEX orders_by_customer ON orders (customer_id, created_at);
    `
  },
  {
    version: 9,
    name: 'request log: who answered (the emulator or the upstream), the upstream status and time, the fault stage',
    // docs/upstream.md. Older rows were all answered by the emulator, their faults before it.
    sql: `
      ALTER TABLE request_log ADD COLUMN answered_by TEXT NOT NULL DEFAULT 'emulator';
      ALTER TABLE request_log ADD COLUMN upstream_status INTEGER;
      ALTER TABLE request_log ADD COLUMN upstream_ms REAL;
      ALTER TABLE request_log ADD COLUMN fault_stage TEXT;
    `
  },
  {
    version: 10,
    name: 'recordings of forwarded traffic',
    // Not emulator data: a reset or a scenario import leaves them (docs/upstream.md). Exchanges
    // are stored fingerprinted, one row each, in the order they happened.
    sql: `
      CREATE TABLE recordings (
        id           TEXT PRIMARY KEY,
        name         TEXT NOT NULL,
        salt         TEXT NOT NULL,
        upstream_url TEXT,
        started_at   TEXT NOT NULL,
        stopped_at   TEXT,
        refused      INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE recording_exchanges (
        recording_id TEXT NOT NULL REFERENCES recordings (id) ON DELETE CASCADE,
        seq          INTEGER NOT NULL,
        exchange     TEXT NOT NULL,
        PRIMARY KEY (recording_id, seq)
      );
    `
  },
  {
    version: 11,
    name: 'reseller claim tokens kept sealed',
    // The claim token sealed under the runtime key, as credential secrets are, so pending reseller
    // orders list their claim links after a restart (docs/api.md). Rows from before have none:
    // they list as pending with no link.
    sql: `
      ALTER TABLE order_items ADD COLUMN sealed_claim_token TEXT;
    `
  },
  {
    version: 12,
    name: 'recordings count the exchanges they lost',
    // Exchanges observed while storage refused writes are kept in memory and written later; those
    // over the memory bound, or still waiting when the emulator stopped, are counted here
    // (docs/upstream.md). Recordings from before lost none this way.
    sql: `
      ALTER TABLE recordings ADD COLUMN lost INTEGER NOT NULL DEFAULT 0;
    `
  },
  {
    version: 13,
    name: 'the request log in a file of its own',
    // The inspector's worker thread writes the log over its own connection to <database>.requests
    // (./request-log-database.ts), so that recording takes no write lock the licensing calls
    // need. openStore copies the rows there before this runs.
    sql: `
      DROP TABLE request_log;
    `
  },
  {
    version: 14,
    name: 'live activations counted per license',
    // Activate and validate need a license's live activation count. Counting the index read every
    // live activation of the license: 43 us a call at 800 of them, the bench's activate run (13% of
    // its CPU). Triggers keep the count with every write to activations, whoever makes it (the
    // licensing calls, a scenario import, a reset, a cascade from a deleted license), so no code
    // path can forget it. A migration that rebuilds activations drops these triggers with it and
    // must create them again.
    sql: `
      CREATE TABLE live_activation_counts (
        license_id TEXT PRIMARY KEY REFERENCES licenses (id) ON DELETE CASCADE,
        live       INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO live_activation_counts (license_id, live)
        SELECT license_id, COUNT(*) FROM activations WHERE deactivated_at IS NULL GROUP BY license_id;

      CREATE TRIGGER live_activation_counted AFTER INSERT ON activations
        WHEN NEW.deactivated_at IS NULL
      BEGIN
        INSERT INTO live_activation_counts (license_id, live) VALUES (NEW.license_id, 1)
          ON CONFLICT (license_id) DO UPDATE SET live = live + 1;
      END;
      CREATE TRIGGER live_activation_uncounted AFTER DELETE ON activations
        WHEN OLD.deactivated_at IS NULL
      BEGIN
        UPDATE live_activation_counts SET live = live - 1 WHERE license_id = OLD.license_id;
      END;
      CREATE TRIGGER live_activation_recounted AFTER UPDATE OF license_id, deactivated_at ON activations
        WHEN (OLD.deactivated_at IS NULL) IS NOT (NEW.deactivated_at IS NULL) OR OLD.license_id IS NOT NEW.license_id
      BEGIN
        UPDATE live_activation_counts SET live = live - 1
          WHERE license_id = OLD.license_id AND OLD.deactivated_at IS NULL;
        INSERT INTO live_activation_counts (license_id, live) SELECT NEW.license_id, 1 WHERE NEW.deactivated_at IS NULL
          ON CONFLICT (license_id) DO UPDATE SET live = live + 1;
      END;
    `
  }
]

/** The version whose migration drops request_log: the rows are moved to the log file just before it. */
export const REQUEST_LOG_MOVED_VERSION = 13

export const latestSchemaVersion = migrations.reduce((max, m) => Math.max(max, m.version), 0)
