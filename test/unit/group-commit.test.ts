import { statSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'

import { nativeBindingOption } from '../../src/core/store/native-binding'
import type { Store } from '../../src/core/store/store'
import { useStoreFile } from '../support/store-file'

const FRAME_BYTES = 4096 + 24

/** A table of the test's own beside the schema, the WAL folded away, no automatic checkpoint. */
function prepared(store: Store) {
  store.db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
  store.db.pragma('wal_autocheckpoint = 0')
  const insert = store.db.prepare('INSERT INTO notes (body) VALUES (?)')
  const count = () => (store.db.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n
  const walFrames = () => statSync(`${store.path}-wal`).size / FRAME_BYTES
  const foldWal = () => store.db.pragma('wal_checkpoint(TRUNCATE)')
  return { insert, count, walFrames, foldWal }
}

const turnEnds = () => new Promise((resolve) => setImmediate(resolve))

// Store.groupCommit (core/store/group-commit.ts): the writes of one turn of the event loop share
// one transaction and one commit. Real files; another connection is what "committed" means.
describe('group commit', () => {
  const file = useStoreFile('group-commit')
  const others: BetterSqlite3.Database[] = []
  afterEach(() => {
    for (const other of others.splice(0)) other.close()
  })
  /** A read-only connection of its own, closed after the test: what it sees is what was committed. */
  const otherConnection = () => {
    const other = new BetterSqlite3(file.path, { ...nativeBindingOption(), readonly: true })
    others.push(other)
    return other
  }
  const othersSee = (other: BetterSqlite3.Database) =>
    (other.prepare('SELECT COUNT(*) AS n FROM notes').get() as { n: number }).n

  it("writes a turn's grouped writes in one commit: each page once, not once a write", async () => {
    const store = file.open()
    const { insert, walFrames, foldWal } = prepared(store)
    foldWal()
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.groupCommit(() => insert.run(`grouped ${i}`))))
    const grouped = walFrames()
    foldWal()
    for (let i = 0; i < 20; i++) store.transaction(() => insert.run(`alone ${i}`))
    const alone = walFrames()
    expect(grouped).toBeLessThanOrEqual(2)
    expect(alone).toBeGreaterThanOrEqual(20)
  })

  it('resolves only after the commit: another connection sees nothing before, everything after', async () => {
    const store = file.open()
    const { insert } = prepared(store)
    const other = otherConnection()
    const written = Promise.all([1, 2, 3].map((n) => store.groupCommit(() => insert.run(`note ${n}`).changes)))
    let settled = false
    void written.then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    expect(othersSee(other)).toBe(0)
    await expect(written).resolves.toEqual([1, 1, 1])
    expect(othersSee(other)).toBe(3)
  })

  it('rolls back the writes of a work that throws, and keeps the rest of its group', async () => {
    const store = file.open()
    const { insert, count } = prepared(store)
    const before = store.groupCommit(() => insert.run('before'))
    const failing = store.groupCommit(() => {
      insert.run('doomed 1')
      insert.run('doomed 2')
      throw new Error('refused')
    })
    const after = store.groupCommit(() => insert.run('after'))
    await expect(failing).rejects.toThrow('refused')
    await Promise.all([before, after])
    expect(count()).toBe(2)
    expect(store.db.prepare('SELECT body FROM notes ORDER BY id').pluck().all()).toEqual(['before', 'after'])
  })

  it("rolls back a group's first work that throws (it runs without a savepoint), and groups the turn's later works anew", async () => {
    const store = file.open()
    const { insert } = prepared(store)
    const other = otherConnection()
    const failing = store.groupCommit(() => {
      insert.run('doomed first')
      throw new Error('refused')
    })
    const later = [1, 2].map((n) => store.groupCommit(() => insert.run(`later ${n}`)))
    await expect(failing).rejects.toThrow('refused')
    await Promise.all(later)
    expect(other.prepare('SELECT body FROM notes ORDER BY id').pluck().all()).toEqual(['later 1', 'later 2'])
    expect(store.db.inTransaction).toBe(false)
  })

  it('sees the earlier writes of its own group (a limit counted across requests of one turn)', async () => {
    const store = file.open()
    const { insert, count } = prepared(store)
    const limit = 2
    const attempts = Array.from({ length: 5 }, (_, i) =>
      store.groupCommit(() => {
        if (count() >= limit) throw new Error('full')
        insert.run(`seat ${i}`)
      })
    )
    const outcomes = await Promise.allSettled(attempts)
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected'])
    expect(count()).toBe(2)
  })

  it('commits the open group before a transaction of its own, and before closing', async () => {
    const store = file.open()
    const { insert } = prepared(store)
    const other = otherConnection()
    const grouped = store.groupCommit(() => insert.run('grouped'))
    store.transaction(() => insert.run('own'))
    // Both committed by the transaction's return, before the turn ended.
    expect(othersSee(other)).toBe(2)
    await grouped
    const last = store.groupCommit(() => insert.run('last'))
    store.close()
    await expect(last).resolves.toMatchObject({ changes: 1 })
    expect(othersSee(other)).toBe(3)
  })

  it('is part of a transaction of its own when run inside one', async () => {
    const store = file.open()
    const { insert, count } = prepared(store)
    let inner: Promise<unknown> | undefined
    expect(() =>
      store.transaction(() => {
        inner = store.groupCommit(() => insert.run('inner'))
        throw new Error('outer refused')
      })
    ).toThrow('outer refused')
    // The outer transaction rolled back, and the inner write with it.
    await inner
    expect(count()).toBe(0)
  })

  it('rejects every write of a group whose commit fails, and leaves none of them', async () => {
    const store = file.open()
    const { insert, count } = prepared(store)
    store.db.exec(
      'CREATE TABLE parents (id TEXT PRIMARY KEY); CREATE TABLE children (parent_id TEXT REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)'
    )
    const fine = store.groupCommit(() => insert.run('fine'))
    // A deferred foreign key is checked at COMMIT: this group's commit fails.
    const orphan = store.groupCommit(() => store.db.prepare("INSERT INTO children (parent_id) VALUES ('none')").run())
    await expect(fine).rejects.toThrow(/FOREIGN KEY/)
    await expect(orphan).rejects.toThrow(/FOREIGN KEY/)
    expect(count()).toBe(0)
    expect(store.db.inTransaction).toBe(false)
    // The next turn's group starts afresh.
    await store.groupCommit(() => insert.run('next'))
    expect(count()).toBe(1)
    await turnEnds()
  })

  it('keeps the answers of a group whose only writes were stamps when its commit fails (a full disk shows at the commit)', async () => {
    const store = file.open()
    const { insert, count } = prepared(store)
    store.db.exec(
      'CREATE TABLE parents (id TEXT PRIMARY KEY); CREATE TABLE children (parent_id TEXT REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)'
    )
    const orphan = store.db.prepare("INSERT INTO children (parent_id) VALUES ('none')")
    // Two reads that stamp (a validate's last-seen), one of whose stamps makes the commit fail.
    const first = store.groupCommit(() => {
      store.writeIfPossible(() => orphan.run())
      return 'answer 1'
    })
    const second = store.groupCommit(() => {
      store.writeIfPossible(() => insert.run('stamp'))
      return 'answer 2'
    })
    await expect(first).resolves.toBe('answer 1')
    await expect(second).resolves.toBe('answer 2')
    // The stamps are gone with the failed commit; nothing is half kept.
    expect(count()).toBe(0)
    expect(store.db.inTransaction).toBe(false)
    // A group with a write that must commit still fails whole, its stamps' answers with it.
    const stamped = store.groupCommit(() => {
      store.writeIfPossible(() => orphan.run())
      return 'answer 3'
    })
    const lasting = store.groupCommit(() => insert.run('lasting'))
    await expect(stamped).rejects.toThrow(/FOREIGN KEY/)
    await expect(lasting).rejects.toThrow(/FOREIGN KEY/)
    expect(count()).toBe(0)
    await turnEnds()
  })

  /** Another connection (as a second process would) holding the write lock until released. */
  const lockHolder = () => {
    const holder = new BetterSqlite3(file.path, { ...nativeBindingOption(), timeout: 0 })
    others.push(holder)
    holder.exec('BEGIN IMMEDIATE')
    return { release: () => holder.exec('ROLLBACK') }
  }

  it('reads in a turn of reads while another connection holds the write lock: the group takes no lock to read', async () => {
    const store = file.open()
    const { insert, count } = prepared(store)
    insert.run('committed')
    const holder = lockHolder()
    const started = Date.now()
    await expect(Promise.all([1, 2, 3].map(() => store.groupCommit(() => count())))).resolves.toEqual([1, 1, 1])
    expect(Date.now() - started).toBeLessThan(1000)
    holder.release()
  })

  it('retries a grouped write refused by the lock without blocking the loop, and commits it once the lock is free', async () => {
    const store = file.open({ busyTimeoutMs: 5000 })
    const { insert, count } = prepared(store)
    const holder = lockHolder()
    const written = store.groupCommit(() => insert.run('waited'))
    // The event loop turns meanwhile: timers fire while the write waits.
    let ticks = 0
    const ticking = setInterval(() => ticks++, 10)
    await new Promise((resolve) => setTimeout(resolve, 300))
    clearInterval(ticking)
    expect(ticks).toBeGreaterThan(5)
    holder.release()
    await expect(written).resolves.toMatchObject({ changes: 1 })
    expect(count()).toBe(1)
  })

  it('gives up a grouped write after the busy timeout with STORAGE_BUSY, and leaves nothing of it', async () => {
    const store = file.open({ busyTimeoutMs: 300 })
    const { insert, count } = prepared(store)
    const holder = lockHolder()
    await expect(store.groupCommit(() => insert.run('refused'))).rejects.toMatchObject({ code: 'STORAGE_BUSY' })
    expect(store.health.current()).toMatchObject({ code: 'STORAGE_BUSY' })
    holder.release()
    expect(count()).toBe(0)
    await store.groupCommit(() => insert.run('later'))
    expect(store.health.current()).toBeNull()
  })
})
