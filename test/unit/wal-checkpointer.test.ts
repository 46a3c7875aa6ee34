import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, afterEach, describe, expect, it } from 'vitest'

import { nativeBindingOption } from '../../src/core/store/native-binding'
import { AUTO_CHECKPOINT_PAGES, CHECKPOINTER_START_DELAY_MS, openStore } from '../../src/core/store/store'
import type { Store } from '../../src/core/store/store'
import { startWalCheckpointer } from '../../src/core/store/wal-checkpointer'
import type { CheckpointReport, WalCheckpointer } from '../../src/core/store/wal-checkpointer'
import { makeTempDir } from '../support/temp-dir'

const PAGE = 'x'.repeat(3000)
// The better-sqlite3 build for this Node (.ci/run runs the suites under each Node LTS this way).
const binding = nativeBindingOption()

/**
 * A checkpoint that began after `wrote` (the writes were done) and folded every frame: a report
 * queued while the writes went on would say "complete" of the frames it saw then.
 */
const foldedAfter = (wrote: number) => (f: CheckpointReport) => f.at > wrote && f.log > 0 && f.checkpointed === f.log

/** Waits for `condition`, checking every 20 ms; fails after `ms`. */
async function eventually(condition: () => boolean, ms = 10_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

// The server's WAL is checkpointed by a worker thread with its own connection (core/store/wal-checkpointer.ts),
// so no request's commit copies pages or waits for an fsync. Real files, a real worker.
describe('WAL checkpoints from a worker thread', () => {
  const dir = makeTempDir('wal-checkpointer')
  const opened: { close(): void }[] = []
  afterEach(() => {
    for (const each of opened.splice(0)) each.close()
  })
  afterAll(() => dir.remove())

  function database(name: string) {
    const db = new BetterSqlite3(join(dir.path, name), binding)
    db.pragma('journal_mode = WAL')
    db.pragma('wal_autocheckpoint = 0')
    db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT)')
    opened.push(db)
    return db
  }
  const writeRows = (db: BetterSqlite3.Database, count: number) => {
    const insert = db.prepare('INSERT INTO rows (body) VALUES (?)')
    for (let i = 0; i < count; i++) insert.run(PAGE)
  }

  it('folds what the server connection wrote into the database file, while it goes on writing', async () => {
    const db = database('folds.db')
    const frames: CheckpointReport[] = []
    const checkpointer = startWalCheckpointer({
      path: join(dir.path, 'folds.db'),
      nativeBinding: binding.nativeBinding,
      intervalMs: 20,
      onFailure: (error) => {
        throw error
      },
      onCheckpoint: (counts) => frames.push(counts)
    })
    opened.push({ close: () => checkpointer.stop() })
    expect(await checkpointer.ready).toBe(true)

    writeRows(db, 300)
    const wrote = Date.now()
    await eventually(() => frames.some(foldedAfter(wrote)))
    // Everything is in the database file: a copy of it alone has every row.
    checkpointer.stop()
    copyFileSync(join(dir.path, 'folds.db'), join(dir.path, 'folds-copy.db'))
    const copy = new BetterSqlite3(join(dir.path, 'folds-copy.db'), { readonly: true, ...binding })
    opened.push(copy)
    expect(copy.prepare('SELECT COUNT(*) FROM rows').pluck().get()).toBe(300)
  })

  it('keeps the WAL file from growing: once folded, the next writes start it over', async () => {
    const db = database('bounded.db')
    const frames: CheckpointReport[] = []
    const checkpointer = startWalCheckpointer({
      path: join(dir.path, 'bounded.db'),
      nativeBinding: binding.nativeBinding,
      intervalMs: 20,
      onFailure: (error) => {
        throw error
      },
      onCheckpoint: (counts) => frames.push(counts)
    })
    opened.push({ close: () => checkpointer.stop() })
    expect(await checkpointer.ready).toBe(true)
    for (let burst = 0; burst < 5; burst++) {
      writeRows(db, 200)
      const wrote = Date.now()
      await eventually(() => frames.some(foldedAfter(wrote)))
    }
    // Five bursts of 200 one-page rows (each commit writes its leaf and the tree's interior page:
    // two frames of 4 KiB and a 24-byte header), but the WAL never held two bursts' frames;
    // without the checkpoints it would hold all five.
    const burstBytes = 200 * 2 * (4096 + 24)
    const walBytes = statSync(join(dir.path, 'bounded.db-wal')).size
    expect(walBytes).toBeLessThan(2 * burstBytes)
    expect(db.prepare('SELECT COUNT(*) FROM rows').pluck().get()).toBe(1000)
  })

  it('reports a connection that cannot open as not running, once', async () => {
    const notADatabase = join(dir.path, 'a-folder')
    mkdirSync(notADatabase)
    const failures: unknown[] = []
    let checkpointer: WalCheckpointer | null = startWalCheckpointer({
      path: notADatabase,
      nativeBinding: binding.nativeBinding,
      onFailure: (error) => failures.push(error)
    })
    expect(await checkpointer.ready).toBe(false)
    await eventually(() => failures.length > 0)
    expect(failures).toHaveLength(1)
    checkpointer.stop()
    checkpointer = null
  })
})

describe('the store with background checkpoints', () => {
  const dir = makeTempDir('store-background-checkpoints')
  let store: Store | null = null
  afterEach(() => store?.close())
  afterAll(() => dir.remove())

  it('turns its own automatic checkpoint off once the worker runs, and leaves everything in the .db on close', async () => {
    const path = join(dir.path, 'emulator.db')
    store = openStore({ path, checkpointInBackground: true })
    const db = store.db
    // The worker starts a moment after the open (a server's start keeps both cores): SQLite's own until then.
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTO_CHECKPOINT_PAGES)
    await eventually(() => db.pragma('wal_autocheckpoint', { simple: true }) === 0)
    db.exec('CREATE TABLE notes (body TEXT)')
    const insert = db.prepare('INSERT INTO notes (body) VALUES (?)')
    for (let i = 0; i < 500; i++) insert.run(PAGE)
    store.close()
    store = null
    copyFileSync(path, join(dir.path, 'copy.db'))
    const copy = new BetterSqlite3(join(dir.path, 'copy.db'), { readonly: true, ...binding })
    expect(copy.prepare('SELECT COUNT(*) FROM notes').pluck().get()).toBe(500)
    copy.close()
  })

  it('starts no worker for a database file gone before its start, and creates none at the path', async () => {
    const path = join(dir.path, 'gone.db')
    store = openStore({ path, checkpointInBackground: true })
    for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true })
    await new Promise((resolve) => setTimeout(resolve, CHECKPOINTER_START_DELAY_MS + 500))
    expect(existsSync(path)).toBe(false)
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTO_CHECKPOINT_PAGES)
  })

  it('closed before the worker starts: everything is in the .db, and no worker starts after', async () => {
    const path = join(dir.path, 'early.db')
    const early = openStore({ path, checkpointInBackground: true })
    early.db.exec('CREATE TABLE notes (body TEXT)')
    early.db.prepare('INSERT INTO notes (body) VALUES (?)').run(PAGE)
    early.close()
    copyFileSync(path, join(dir.path, 'early-copy.db'))
    const copy = new BetterSqlite3(join(dir.path, 'early-copy.db'), { readonly: true, ...binding })
    expect(copy.prepare('SELECT COUNT(*) FROM notes').pluck().get()).toBe(1)
    copy.close()
    // A worker started now would open the file and leave its -shm beside it.
    await new Promise((resolve) => setTimeout(resolve, CHECKPOINTER_START_DELAY_MS + 500))
    expect(existsSync(`${path}-shm`)).toBe(false)
  })
})
