import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { createRequestLog } from '../../src/core/inspector/request-log'
import { schemaVersion } from '../../src/core/store/migrate'
import { latestSchemaVersion, migrations } from '../../src/core/store/migrations'
import { nativeBindingOption } from '../../src/core/store/native-binding'
import { requestLogPathFor } from '../../src/core/store/request-log-database'
import { openStore } from '../../src/core/store/store'
import { requestCapture } from '../support/request-capture'
import { useStoreFile } from '../support/store-file'

// Upgrading a file made by an older build: the data stays, the new tables work.
describe('store migrations', () => {
  const storeFile = useStoreFile('migrations')
  const { open } = storeFile

  it('has versions 1..latest, in order, with no gap', () => {
    expect(migrations.map((m) => m.version)).toEqual(Array.from({ length: latestSchemaVersion }, (_, i) => i + 1))
    expect(latestSchemaVersion).toBeGreaterThanOrEqual(2)
  })

  it('stops at migrateTo: a version-1 file has no credential tables', () => {
    const store = open({ migrateTo: 1 })
    expect(schemaVersion(store.db)).toBe(1)
    const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()
    expect(tables).toContain('products')
    expect(tables).not.toContain('product_credentials')
  })

  it('upgrades a version-1 file to the latest version with its rows intact', () => {
    const old = open({ migrateTo: 1 })
    old.db
      .prepare(
        "INSERT INTO developers (id, email, name, role, created_at) VALUES ('dev_1', 'ada@example.test', 'Ada', 'developer', '2024-01-01T00:00:00.000Z')"
      )
      .run()
    old.db
      .prepare(
        "INSERT INTO products (id, developer_id, name, app_id, storefront_slug, created_at) VALUES ('prod_1', 'dev_1', 'Old Synth', 'app_old', 'main', '2024-01-02T00:00:00.000Z')"
      )
      .run()
    old.close()

    const store = open()
    expect(schemaVersion(store.db)).toBe(latestSchemaVersion)
    expect(store.db.prepare('SELECT id, email, name, role FROM developers').all()).toEqual([
      { id: 'dev_1', email: 'ada@example.test', name: 'Ada', role: 'developer' }
    ])
    expect(store.db.prepare('SELECT id, developer_id, name, app_id, storefront_slug FROM products').all()).toEqual([
      { id: 'prod_1', developer_id: 'dev_1', name: 'Old Synth', app_id: 'app_old', storefront_slug: 'main' }
    ])

    // The tables added by the upgrade take rows that reference the old data.
    store.db
      .prepare(
        `INSERT INTO product_credentials (id, seq, product_id, app_id, key_hash, secret_hash, key_preview, secret_preview, status, created_at)
         VALUES ('cred_1', 1, 'prod_1', 'app_old', 'kh', 'sh', 'pk_...', 'sk_...', 'active', '2024-01-03T00:00:00.000Z')`
      )
      .run()
    store.db
      .prepare(
        "INSERT INTO credential_audit (product_id, credential_id, action, outcome, actor_kind, at) VALUES ('prod_1', 'cred_1', 'create', 'ok', 'developer', '2024-01-03T00:00:00.000Z')"
      )
      .run()
    store.db
      .prepare(
        "INSERT INTO connection_status (product_id, last_status, last_attempt_at, attempt_count, success_count, failure_count) VALUES ('prod_1', 'verified', '2024-01-03T00:00:00.000Z', 1, 1, 0)"
      )
      .run()
    expect(store.db.prepare('SELECT product_id FROM product_credentials').pluck().all()).toEqual(['prod_1'])
    expect(store.db.prepare('SELECT count(*) FROM credential_audit').pluck().get()).toBe(1)
    expect(store.db.prepare('SELECT attempt_count FROM connection_status').pluck().get()).toBe(1)
  })

  it('rebuilds orders for chargebacks (version 8) without losing an order, its items or its entitlement', () => {
    const old = open({ migrateTo: 7 })
    old.db.exec(`
      INSERT INTO developers (id, email, role, created_at) VALUES ('dev_1', 'ada@example.test', 'developer', '2024-01-01T00:00:00.000Z');
      INSERT INTO products (id, developer_id, name, app_id, created_at) VALUES ('prod_1', 'dev_1', 'Synth', 'app_1', '2024-01-01T00:00:00.000Z');
      INSERT INTO customers (id, user_id, email, created_at) VALUES ('cus_1', 'usr_1', 'c@example.test', '2024-01-01T00:00:00.000Z');
      INSERT INTO orders (id, customer_id, channel, status, currency, total_cents, created_at)
        VALUES ('ord_1', 'cus_1', 'direct', 'refunded', 'USD', 9900, '2024-01-02T00:00:00.000Z');
      INSERT INTO order_items (id, order_id, product_id, kind, unit_price_cents) VALUES ('item_1', 'ord_1', 'prod_1', 'perpetual', 9900);
      INSERT INTO entitlements (id, customer_id, product_id, order_item_id, source, status, created_at)
        VALUES ('ent_1', 'cus_1', 'prod_1', 'item_1', 'purchase', 'active', '2024-01-02T00:00:00.000Z');
    `)
    expect(() => old.db.prepare("UPDATE orders SET status = 'chargeback'").run()).toThrow(/CHECK/)
    old.close()

    const store = open()
    expect(schemaVersion(store.db)).toBe(latestSchemaVersion)
    expect(store.db.prepare('SELECT id, status, reversed_at FROM orders').all()).toEqual([
      { id: 'ord_1', status: 'refunded', reversed_at: null }
    ])
    expect(store.db.prepare('SELECT order_id FROM order_items').pluck().all()).toEqual(['ord_1'])
    expect(store.db.prepare('SELECT order_item_id FROM entitlements').pluck().all()).toEqual(['item_1'])
    store.db.prepare("UPDATE orders SET status = 'chargeback'").run()
    // The references still hold, and still cascade: foreign keys are back on.
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1)
    store.db.prepare("DELETE FROM orders WHERE id = 'ord_1'").run()
    expect(store.db.prepare('SELECT count(*) FROM order_items').pluck().get()).toBe(0)
  })

  it('moves the request log to its own file (version 13), ids and all, and new ids go on from them', () => {
    const old = open({ migrateTo: 12 })
    const insert = old.db.prepare(
      `INSERT INTO request_log (id, at, surface, method, path, status, duration_ms, auth_kind, request_json, response_json, source)
       VALUES (?, '2026-01-01T00:00:00.000Z', 'license-v1', 'POST', ?, 200, 1.5, 'product-credential', '{}', '{}', ?)`
    )
    insert.run(7, '/api/license/v1/validate', 'client')
    insert.run(9, '/api/license/v1/activate', 'ui')
    old.close()

    const store = open()
    const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()
    expect(tables).not.toContain('request_log')
    const log = createRequestLog({ path: requestLogPathFor(store.path), capacity: 10, clock: createClock() })
    try {
      expect(log.list().entries.map((entry) => [entry.id, entry.path, entry.source])).toEqual([
        [9, '/api/license/v1/activate', 'ui'],
        [7, '/api/license/v1/validate', 'client']
      ])
      expect(log.count()).toEqual({ requests: 2, uiRequests: 1 })
      log.record(requestCapture({ url: '/.well-known/jwks.json', requestHeaders: {}, surface: 'well-known' }))
      expect(log.newestId()).toBe(10)
    } finally {
      log.close()
    }
  })

  it('reopening a file at the latest version changes nothing', () => {
    open().close()
    const again = open()
    expect(schemaVersion(again.db)).toBe(latestSchemaVersion)
  })

  it('refuses a file made by a newer build, and names both versions', () => {
    const raw = new BetterSqlite3(storeFile.path, nativeBindingOption())
    raw.pragma(`user_version = ${latestSchemaVersion + 1}`)
    raw.close()
    expect(() => openStore({ path: storeFile.path })).toThrow(
      `Database schema version ${latestSchemaVersion + 1} is newer than this build supports (${latestSchemaVersion}).`
    )
    // The refused file is left as it was.
    const check = new BetterSqlite3(storeFile.path, nativeBindingOption())
    try {
      expect(check.pragma('user_version', { simple: true })).toBe(latestSchemaVersion + 1)
      expect(check.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get()).toBe(0)
    } finally {
      check.close()
    }
  })
})
