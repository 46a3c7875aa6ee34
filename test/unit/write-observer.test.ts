import { afterEach, describe, expect, it } from 'vitest'

import { createChangeFeed } from '../../src/core/changes/change-feed'
import { describeWrite, observeWrites } from '../../src/core/changes/write-observer'
import { openStore } from '../../src/core/store/store'
import type { Store } from '../../src/core/store/store'
import type { ChangeBatch } from '../../src/shared/contract/changes'

// The change feed's write observer: which entity (and id) a write statement changes, read from its SQL.

describe('describeWrite', () => {
  it('finds the id of an insert by column, positional or named', () => {
    expect(describeWrite('INSERT INTO developers (id, email, name, role, created_at) VALUES (?, ?, ?, ?, ?)')).toEqual({
      table: 'developers',
      entity: 'developer',
      idSource: { position: 0 }
    })
    expect(describeWrite('INSERT INTO activations (id, license_id) VALUES (@id, @licenseId)')).toEqual({
      table: 'activations',
      entity: 'activation',
      idSource: { name: 'id' }
    })
    expect(describeWrite('INSERT INTO credential_audit (product_id, credential_id, action) VALUES (?, ?, ?)')).toEqual({
      table: 'credential_audit',
      entity: 'credential',
      idSource: { position: 1 }
    })
  })

  it('finds the id of an update or a delete in its WHERE clause, counting the placeholders before it', () => {
    expect(describeWrite('UPDATE product_credentials SET last_used_at = ? WHERE id = ?')).toEqual({
      table: 'product_credentials',
      entity: 'credential',
      idSource: { position: 1 }
    })
    expect(describeWrite('UPDATE activations SET deactivated_at = ? WHERE id = ? AND deactivated_at IS NULL')).toEqual({
      table: 'activations',
      entity: 'activation',
      idSource: { position: 1 }
    })
    expect(describeWrite('UPDATE subscriptions SET status = @status WHERE id = @id')).toEqual({
      table: 'subscriptions',
      entity: 'subscription',
      idSource: { name: 'id' }
    })
    expect(describeWrite('DELETE FROM licenses')).toEqual({ table: 'licenses', entity: 'license', idSource: null })
  })

  it('ignores reads and the tables that are not state (the request log has its own stream)', () => {
    expect(describeWrite('SELECT * FROM licenses WHERE id = ?')).toBeNull()
    expect(describeWrite('INSERT INTO request_log (at) VALUES (?)')).toBeNull()
    expect(describeWrite('INSERT OR IGNORE INTO signing_keys (kid) VALUES (?)')).toBeNull()
  })
})

describe('observeWrites over a real database', () => {
  let store: Store | null = null
  afterEach(() => store?.close())

  it('announces a write that changed rows, with its id, and nothing for one that changed none', async () => {
    store = openStore({ path: ':memory:' })
    const feed = createChangeFeed(1)
    observeWrites(store.db, (entity, id) => feed.announce({ kind: 'entity', entity, id }))
    const batches: ChangeBatch[] = []
    feed.subscribe((batch) => batches.push(batch))
    store.db
      .prepare('INSERT INTO developers (id, email, name, role, created_at) VALUES (?, ?, ?, ?, ?)')
      .run('dev_1', 'a@example.test', null, 'developer', '2026-01-01T00:00:00Z')
    store.db.prepare('UPDATE developers SET name = ? WHERE id = ?').run('Nobody', 'dev_missing')
    feed.flush()
    expect(batches.flatMap((batch) => batch.changes)).toEqual([{ kind: 'entity', entity: 'developer', id: 'dev_1' }])
  })

  it('a whole-state change stands for the row changes before it in the same batch', () => {
    const feed = createChangeFeed(1)
    const batches: ChangeBatch[] = []
    feed.subscribe((batch) => batches.push(batch))
    feed.announce({ kind: 'entity', entity: 'license', id: 'lic_1' })
    feed.announce({ kind: 'everything', cause: 'import' })
    feed.announce({ kind: 'clock' })
    feed.flush()
    expect(batches).toEqual([{ seq: 1, changes: [{ kind: 'everything', cause: 'import' }, { kind: 'clock' }] }])
  })
})
