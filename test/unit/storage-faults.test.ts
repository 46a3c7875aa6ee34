import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'

import { nativeBindingOption } from '../../src/core/store/native-binding'
import { useStoreFile } from '../support/store-file'

// Store-level storage faults on a real file (core/store/storage-faults.ts). The disk filling up
// for real is test/api/storage-faults.test.ts (a tmpfs, as root); here SQLite's max_page_count
// caps the file instead, which works for any user.
describe('storage faults in the store', () => {
  const file = useStoreFile('storage-faults')

  it('refuses a write past the cap with STORAGE_FULL naming the file, keeps what was committed, and writes again once allowed', async () => {
    const store = file.open()
    store.db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
    const insert = store.db.prepare('INSERT INTO notes (body) VALUES (?)')
    const pages = store.db.pragma('page_count', { simple: true }) as number
    store.db.pragma(`max_page_count = ${pages + 2}`)
    let acknowledged = 0
    let refused: unknown = null
    for (let i = 0; i < 100 && refused === null; i++) {
      try {
        store.transaction(() => insert.run('x'.repeat(3000)))
        acknowledged++
      } catch (error) {
        refused = error
      }
    }
    expect(refused).toMatchObject({ code: 'STORAGE_FULL' })
    expect((refused as Error).message).toContain(file.path)
    expect(store.health.current()).toMatchObject({ code: 'STORAGE_FULL' })
    // A grouped write is refused the same way, and a stamp is dropped without failing anything.
    await expect(store.groupCommit(() => insert.run('x'.repeat(3000)))).rejects.toMatchObject({ code: 'STORAGE_FULL' })
    expect(store.writeIfPossible(() => void insert.run('x'.repeat(3000)))).toBe(false)
    expect(store.db.prepare('SELECT COUNT(*) FROM notes').pluck().get()).toBe(acknowledged)

    store.db.pragma('max_page_count = 1073741823')
    store.transaction(() => insert.run('after'))
    expect(store.health.current()).toBeNull()
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(store.db.prepare('SELECT COUNT(*) FROM notes').pluck().get()).toBe(acknowledged + 1)
  })

  it("ends every wait for another program's write lock at once when told to (a second signal at exit), and waits no more", async () => {
    // Ten minutes of busy timeout: only stopWaitingForLock can end these waits within the test.
    const store = file.open({ busyTimeoutMs: 600_000 })
    store.db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
    const other = new BetterSqlite3(file.path, nativeBindingOption())
    other.exec('BEGIN IMMEDIATE')
    try {
      // A free lock is no wait: nothing is told.
      let toldFree = 0
      other.exec('ROLLBACK')
      await store.whenWritable(() => toldFree++)
      expect(toldFree).toBe(0)
      other.exec('BEGIN IMMEDIATE')
      let told = 0
      const writable = store.whenWritable(() => told++)
      expect(told).toBe(1)
      const grouped = store.groupCommit(() => store.db.prepare('INSERT INTO notes (body) VALUES (?)').run('x'))
      // Both are waiting (retrying); without this they would wait ten minutes.
      store.stopWaitingForLock()
      await expect(writable).rejects.toMatchObject({ code: 'STORAGE_BUSY' })
      await expect(grouped).rejects.toMatchObject({ code: 'STORAGE_BUSY' })
      expect(told).toBe(1)
      // From now on a wait gives up at its first refusal, and says it waits no more.
      let toldAfterEnd = 0
      await expect(store.whenWritable(() => toldAfterEnd++)).rejects.toMatchObject({ code: 'STORAGE_BUSY' })
      expect(toldAfterEnd).toBe(0)
    } finally {
      other.exec('ROLLBACK')
      other.close()
    }
    expect(store.db.prepare('SELECT COUNT(*) FROM notes').pluck().get()).toBe(0)
  })

  it('tells each episode once: its start on the first failure, its end on the next write that changes something', () => {
    const store = file.open()
    store.db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)')
    const heard: string[] = []
    store.health.onChange((fault, ended) => heard.push(fault ? `start ${fault.code}` : `end ${ended?.code}`))
    const pages = store.db.pragma('page_count', { simple: true }) as number
    store.db.pragma(`max_page_count = ${pages + 2}`)
    let failures = 0
    for (let i = 0; i < 100 && failures < 5; i++) {
      try {
        store.transaction(() => store.db.prepare('INSERT INTO notes (body) VALUES (?)').run('x'.repeat(3000)))
      } catch {
        failures++
      }
    }
    expect(failures).toBe(5)
    store.db.pragma('max_page_count = 1073741823')
    store.transaction(() => store.db.prepare('INSERT INTO notes (body) VALUES (?)').run('fits'))
    store.transaction(() => store.db.prepare('INSERT INTO notes (body) VALUES (?)').run('fits too'))
    expect(heard).toEqual(['start STORAGE_FULL', 'end STORAGE_FULL'])
  })
})
