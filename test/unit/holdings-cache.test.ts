import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { createDataVersion } from '../../src/core/changes/data-version'
import { observeWrites } from '../../src/core/changes/write-observer'
import { cachedHoldings } from '../../src/core/library/holdings-cache'
import { createLibraryRepository } from '../../src/core/library/library-repository'
import { openStore } from '../../src/core/store/store'
import { makeTempDir } from '../support/temp-dir'

// The library's kept rows (core/library/holdings-cache.ts) on a real SQLite file: kept while
// nothing is written, read again after any write, and nothing read inside a transaction kept
// once it rolls back (the store reports rollbacks; the version moves, as emulator-core wires it).
describe('cachedHoldings', () => {
  const dir = makeTempDir('holdings-cache')
  const store = openStore({ path: join(dir.path, 'holdings.db') })
  const version = createDataVersion()
  observeWrites(store.db, (_entity, _id, table) => version.bump(table))
  store.onRollback(() => version.rolledBack())
  const repository = createLibraryRepository(store)
  const cache = cachedHoldings(repository, version)
  const at = '2031-01-01T00:00:00.000Z'
  store.db
    .prepare("INSERT INTO developers (id, email, role, created_at) VALUES ('dev', 'd@example.test', 'developer', ?)")
    .run(at)
  store.db
    .prepare(
      "INSERT INTO products (id, developer_id, name, app_id, created_at) VALUES ('prod', 'dev', 'Synth', 'app_1', ?)"
    )
    .run(at)
  store.db
    .prepare("INSERT INTO customers (id, user_id, email, created_at) VALUES ('cus', 'usr', 'c@example.test', ?)")
    .run(at)
  const insertLicense = store.db.prepare(
    "INSERT INTO licenses (id, license_key, customer_id, product_id, kind, status, max_activations, created_at) VALUES (?, ?, 'cus', 'prod', 'perpetual', 'active', 2, ?)"
  )
  afterAll(() => {
    store.close()
    dir.remove()
  })

  it('answers the same rows while nothing is written, and new rows after a write', () => {
    insertLicense.run('lic_1', 'KEY-1', at)
    const first = cache.holdings('cus')
    expect(first.licenses.map((l) => l.id)).toEqual(['lic_1'])
    expect(cache.holdings('cus')).toBe(first)
    insertLicense.run('lic_2', 'KEY-2', at)
    expect(cache.holdings('cus').licenses.map((l) => l.id)).toEqual(['lic_1', 'lic_2'])
  })

  it('keeps nothing read inside a transaction that rolls back', () => {
    expect(() =>
      store.transaction(() => {
        insertLicense.run('lic_3', 'KEY-3', at)
        expect(cache.holdings('cus').licenses).toHaveLength(3)
        throw new Error('roll back')
      })
    ).toThrow('roll back')
    expect(cache.holdings('cus').licenses.map((l) => l.id)).toEqual(['lic_1', 'lic_2'])
  })

  it('keeps nothing read inside a grouped write that rolls back, while the rest of its group commits', async () => {
    const kept = cache.holdings('cus')
    const failing = store.groupCommit(() => {
      insertLicense.run('lic_4', 'KEY-4', at)
      expect(cache.holdings('cus').licenses).toHaveLength(3)
      throw new Error('roll back')
    })
    const committed = store.groupCommit(() => insertLicense.run('lic_5', 'KEY-5', at).changes)
    // Read between the two, inside the still-open group: the committed one's row, not the failed one's.
    expect(cache.holdings('cus').licenses.map((l) => l.id)).toEqual(['lic_1', 'lic_2', 'lic_5'])
    await expect(failing).rejects.toThrow('roll back')
    await expect(committed).resolves.toBe(1)
    expect(cache.holdings('cus')).not.toBe(kept)
    expect(cache.holdings('cus').licenses.map((l) => l.id)).toEqual(['lic_1', 'lic_2', 'lic_5'])
  })
})
