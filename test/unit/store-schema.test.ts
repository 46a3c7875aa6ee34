import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { AUTO_CHECKPOINT_PAGES, openStore, WAL_SIZE_LIMIT_BYTES } from '../../src/core/store/store'
import type { Store } from '../../src/core/store/store'
import { makeTempDir } from '../support/temp-dir'

/** The SQLite error code of whatever `work` throws (undefined when it does not throw). */
function sqliteCodeOf(work: () => unknown): string | undefined {
  try {
    work()
  } catch (error) {
    return (error as { code?: string }).code
  }
  return undefined
}

describe('store connection settings and constraints', () => {
  let dir: ReturnType<typeof makeTempDir>
  let store: Store

  beforeEach(() => {
    dir = makeTempDir('schema')
    store = openStore({ path: join(dir.path, 'emulator.db') })
    store.db
      .prepare(
        "INSERT INTO developers (id, email, role, created_at) VALUES ('dev_1', 'dev@example.test', 'developer', '2024-01-01T00:00:00Z')"
      )
      .run()
    store.db
      .prepare(
        "INSERT INTO products (id, developer_id, name, app_id, created_at) VALUES ('prod_1', 'dev_1', 'Synth', 'app_1', '2024-01-01T00:00:00Z')"
      )
      .run()
  })
  afterEach(() => {
    store.close()
    dir.remove()
  })

  const insertCredential = (id: string, seq: number, status: 'active' | 'revoked') =>
    store.db
      .prepare(
        `INSERT INTO product_credentials (id, seq, product_id, app_id, key_hash, secret_hash, key_preview, secret_preview, status, created_at)
         VALUES (?, ?, 'prod_1', 'app_1', ?, ?, 'pk_...', 'sk_...', ?, '2024-01-01T00:00:00Z')`
      )
      .run(id, seq, `key-hash-${id}`, `secret-hash-${id}`, status)

  it('uses WAL journaling on a file database, checkpointed by SQLite itself unless asked otherwise, cut back after', () => {
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTO_CHECKPOINT_PAGES)
    expect(store.db.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES)
  })

  it('enforces foreign keys', () => {
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(
      sqliteCodeOf(() =>
        store.db
          .prepare(
            "INSERT INTO products (id, developer_id, name, app_id, created_at) VALUES ('prod_x', 'dev_missing', 'X', 'app_x', 'now')"
          )
          .run()
      )
    ).toBe('SQLITE_CONSTRAINT_FOREIGNKEY')
  })

  it('cascades a product delete to its credentials', () => {
    insertCredential('cred_1', 1, 'active')
    store.db.prepare("DELETE FROM products WHERE id = 'prod_1'").run()
    expect(store.db.prepare('SELECT count(*) FROM product_credentials').pluck().get()).toBe(0)
  })

  it('refuses a second active credential for one product in SQL itself', () => {
    insertCredential('cred_1', 1, 'active')
    expect(sqliteCodeOf(() => insertCredential('cred_2', 2, 'active'))).toBe('SQLITE_CONSTRAINT_UNIQUE')
    expect(store.db.prepare("SELECT id FROM product_credentials WHERE status = 'active'").pluck().all()).toEqual([
      'cred_1'
    ])
  })

  it('refuses flipping a revoked credential back to active while another is active', () => {
    insertCredential('cred_1', 1, 'revoked')
    insertCredential('cred_2', 2, 'active')
    expect(
      sqliteCodeOf(() => store.db.prepare("UPDATE product_credentials SET status = 'active' WHERE id = 'cred_1'").run())
    ).toBe('SQLITE_CONSTRAINT_UNIQUE')
  })

  it('accepts any number of revoked credentials beside one active one', () => {
    insertCredential('cred_1', 1, 'revoked')
    insertCredential('cred_2', 2, 'revoked')
    insertCredential('cred_3', 3, 'active')
    const statuses = store.db.prepare('SELECT status FROM product_credentials ORDER BY seq').pluck().all()
    expect(statuses).toEqual(['revoked', 'revoked', 'active'])
  })

  it('rejects a status outside active/revoked', () => {
    expect(sqliteCodeOf(() => insertCredential('cred_1', 1, 'paused' as 'active'))).toBe('SQLITE_CONSTRAINT_CHECK')
  })

  it('rolls back a whole store.transaction when its work throws', () => {
    expect(() =>
      store.transaction(() => {
        insertCredential('cred_1', 1, 'active')
        insertCredential('cred_2', 2, 'active')
      })
    ).toThrow()
    expect(store.db.prepare('SELECT count(*) FROM product_credentials').pluck().get()).toBe(0)
  })

  it('returns what the work returns, and a nested transaction that throws undoes only its own writes', () => {
    const result = store.transaction(() => {
      insertCredential('cred_1', 1, 'active')
      expect(() =>
        store.transaction(() => {
          insertCredential('cred_2', 2, 'revoked')
          throw new Error('inner work failed')
        })
      ).toThrow('inner work failed')
      return 'outer done'
    })
    expect(result).toBe('outer done')
    expect(store.db.prepare('SELECT id FROM product_credentials').pluck().all()).toEqual(['cred_1'])
  })

  it('close() may be called twice', () => {
    store.close()
    expect(() => store.close()).not.toThrow()
    expect(store.db.open).toBe(false)
  })
})

describe('in-memory store', () => {
  it('migrates and enforces foreign keys too', () => {
    const store = openStore({ path: ':memory:' })
    try {
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1)
      expect(
        store.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'product_credentials'").pluck().get()
      ).toBe(1)
    } finally {
      store.close()
    }
  })
})
