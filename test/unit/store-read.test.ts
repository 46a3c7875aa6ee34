import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'

import { latestSchemaVersion } from '../../src/core/store/migrations'
import { nativeBindingOption } from '../../src/core/store/native-binding'
import { openStore, UnreadableDatabaseError } from '../../src/core/store/store'
import type { Store } from '../../src/core/store/store'
import { useStoreFile } from '../support/store-file'

// Store.read and StoreOptions.readOnly (core/store/store.ts): reads on one snapshot that never
// take the write lock. Real files; a second connection is "another program".
describe('Store.read', () => {
  const file = useStoreFile('store-read')
  const others: BetterSqlite3.Database[] = []
  afterEach(() => {
    for (const other of others.splice(0)) {
      if (other.inTransaction) other.exec('ROLLBACK')
      other.close()
    }
  })
  /** Another program's connection to the same file, closed after the test. */
  const otherConnection = () => {
    const other = new BetterSqlite3(file.path, { ...nativeBindingOption(), timeout: 0 })
    others.push(other)
    return other
  }
  const withNotes = (store: Store) => {
    store.db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
    const insert = store.db.prepare('INSERT INTO notes (body) VALUES (?)')
    const count = () => (store.db.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n
    return { insert, count }
  }

  it('reads one snapshot: a commit made by another program in the middle is not seen', () => {
    const store = file.open()
    const { count } = withNotes(store)
    const other = otherConnection()
    const seen = store.read(() => {
      const first = count()
      other.prepare("INSERT INTO notes (body) VALUES ('elsewhere')").run()
      return [first, count()]
    })
    expect(seen).toEqual([0, 0])
    // Outside it, the commit shows: the snapshot ended with the read.
    expect(count()).toBe(1)
  })

  it('answers while another program holds the write lock, and takes no lock of its own', () => {
    const store = file.open()
    const { insert, count } = withNotes(store)
    insert.run('before')
    const other = otherConnection()
    other.exec('BEGIN IMMEDIATE')
    expect(store.read(count)).toBe(1)
    // A read is no failed write: no episode starts.
    expect(store.health.current()).toBeNull()
    // The other program commits, as it could not if the read had kept a lock.
    other.prepare("INSERT INTO notes (body) VALUES ('theirs')").run()
    other.exec('COMMIT')
    expect(store.read(count)).toBe(2)
  })

  it('runs inside an open group or transaction, seeing its writes not yet committed', async () => {
    const store = file.open()
    const { insert, count } = withNotes(store)
    const inGroup = await store.groupCommit(() => {
      insert.run('grouped')
      return store.read(count)
    })
    expect(inGroup).toBe(1)
    const inTransaction = store.transaction(() => {
      insert.run('own')
      return store.read(count)
    })
    expect(inTransaction).toBe(2)
  })

  it('leaves no transaction open when the work throws', () => {
    const store = file.open()
    const { count } = withNotes(store)
    expect(() =>
      store.read(() => {
        count()
        throw new Error('the work failed')
      })
    ).toThrow('the work failed')
    expect(store.db.inTransaction).toBe(false)
  })
})

describe('openStore({ readOnly: true })', () => {
  const file = useStoreFile('store-read-only')

  it('reads a current database and changes none of its bytes; writes are refused', () => {
    const writer = openStore({ path: file.path })
    writer.db
      .prepare(
        "INSERT INTO developers (id, email, name, role, created_at) VALUES ('dev_1', 'a@example.test', NULL, 'developer', '2026-01-01T00:00:00.000Z')"
      )
      .run()
    writer.close()
    const bytes = readFileSync(file.path)
    const reader = file.open({ readOnly: true })
    const emails = reader.read(() => reader.db.prepare('SELECT email FROM developers').pluck().all())
    expect(emails).toEqual(['a@example.test'])
    expect(() => reader.transaction(() => undefined)).toThrow(expect.objectContaining({ code: 'STORAGE_READ_ONLY' }))
    reader.close()
    expect(readFileSync(file.path).equals(bytes)).toBe(true)
    expect(existsSync(`${file.path}.lock`)).toBe(false)
  })

  it('refuses a file that is not an emulator database, and leaves it empty', () => {
    writeFileSync(file.path, '')
    expect(() => openStore({ path: file.path, readOnly: true })).toThrow(UnreadableDatabaseError)
    expect(readFileSync(file.path)).toHaveLength(0)
  })

  it('refuses an older schema instead of migrating it', () => {
    openStore({ path: file.path, migrateTo: latestSchemaVersion - 1 }).close()
    let refused: unknown
    try {
      openStore({ path: file.path, readOnly: true })
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(UnreadableDatabaseError)
    expect(refused).toMatchObject({ found: latestSchemaVersion - 1, expected: latestSchemaVersion })
    // Still the older version: nothing was migrated.
    const check = new BetterSqlite3(file.path, { ...nativeBindingOption(), readonly: true })
    expect(check.pragma('user_version', { simple: true })).toBe(latestSchemaVersion - 1)
    check.close()
  })

  it('refuses a missing path without creating it', () => {
    const missing = file.pathOf('missing.db')
    expect(() => openStore({ path: missing, readOnly: true })).toThrow()
    expect(existsSync(missing)).toBe(false)
  })
})
