import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import { nativeBindingOption } from '../../src/core/store/native-binding'
import { withReadOnlyDatabase } from '../support/database'
import { startEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'
import { makeTempDir } from '../support/temp-dir'

// docs/upstream.md "Record, replay, reproduce": a recording loses nothing while storage refuses
// writes. The proxy records in front of a second emulator (the platform) while another connection
// holds its database's write lock for real (BEGIN IMMEDIATE, as a sqlite3 shell or a viewer does).

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Another program's connection inside BEGIN IMMEDIATE: the emulator's writes fail SQLITE_BUSY until it lets go. */
function holdWriteLock(databasePath: string) {
  const other = new BetterSqlite3(databasePath, nativeBindingOption())
  other.exec('BEGIN IMMEDIATE')
  const release = () => {
    if (!other.open) return
    other.exec('ROLLBACK')
    other.close()
  }
  cleanups.push(release)
  return { release }
}

/** The exchanges the database itself holds (not what the emulator keeps in memory): license keys by seq. */
const storedExchanges = (databasePath: string) =>
  withReadOnlyDatabase(databasePath, (db) =>
    (
      db.prepare('SELECT seq, exchange FROM recording_exchanges ORDER BY recording_id, seq').all() as {
        seq: number
        exchange: string
      }[]
    ).map((row) => `${row.seq}:${JSON.parse(row.exchange).request.body.json.license_key}`)
  )

const storedCounts = (databasePath: string, id: string) =>
  withReadOnlyDatabase(
    databasePath,
    (db) => db.prepare('SELECT refused, lost FROM recordings WHERE id = ?').get(id) as { refused: number; lost: number }
  )

describe('a recording while another program holds the database write lock', () => {
  let platform: TestEmulator
  let credential: PluginCredential
  const runtimeKey = randomBytes(32)

  beforeAll(async () => {
    platform = await startEmulator()
    credential = await productWithCredential(platform, 'Recorded Synth')
  })
  afterAll(async () => platform.close())

  async function proxyAt(databasePath: string): Promise<TestEmulator> {
    // A short busy timeout: the close that waits for the lock waits this long.
    const proxy = await startEmulator({
      databasePath,
      runtimeKey,
      storageBusyTimeoutMs: 300,
      upstream: { url: platform.baseUrl }
    })
    let closed = false
    const close = proxy.close
    proxy.close = async () => {
      if (closed) return
      closed = true
      await close()
    }
    cleanups.push(() => proxy.close())
    return proxy
  }

  const validate = async (proxy: TestEmulator, key: string) => {
    const answer = await pluginClient(proxy, credential).validate(key, 'studio-mac')
    // The platform's own answer (no such license), passed on: the call was forwarded.
    expect(answer.headers.get('x-emulator-source')).toBe('upstream')
  }
  /** Waits until the recording counts `n` exchanges (they are handed on once the client has its answer). */
  const untilObserved = async (proxy: TestEmulator, n: number) =>
    expect
      .poll(async () => {
        const list = await proxy.control('GET', '/recordings')
        const [running] = list.body.recordings
        return running.exchanges + running.lost
      })
      .toBe(n)

  it('keeps the exchanges forwarded meanwhile and writes them, in order, once it lets go, to the recording stopped meanwhile', async () => {
    const dir = makeTempDir('rec-busy')
    cleanups.push(dir.remove)
    const databasePath = join(dir.path, 'proxy.db')
    const proxy = await proxyAt(databasePath)
    const started = await proxy.control('POST', '/recordings', { name: 'through a locked database' })
    const id = started.body.recording.id as string

    await validate(proxy, 'K-1')
    await validate(proxy, 'K-2')
    await untilObserved(proxy, 2)
    const lock = holdWriteLock(databasePath)
    for (const key of ['K-3', 'K-4', 'K-5']) await validate(proxy, key)
    await untilObserved(proxy, 5)
    // The lock is real: the database holds the first two only; the others wait in memory.
    expect(storedExchanges(databasePath)).toEqual(['1:K-1', '2:K-2'])
    // The recording shows them already, in order.
    const during = (await proxy.control('GET', `/recordings/${id}`)).body.recording
    expect(during.exchanges.map((e: any) => e.seq)).toEqual([1, 2, 3, 4, 5])
    expect(during.lost).toBe(0)

    lock.release()
    // Stopped before the waiting exchanges are written: they were observed while it ran, so they are its.
    const stopped = await proxy.control('POST', `/recordings/${id}/stop`)
    expect(stopped.status, stopped.text).toBe(200)
    expect(stopped.body.recording).toMatchObject({ exchanges: 5, refused: 0, lost: 0 })
    // Once writes succeed again they are written: the database itself holds all five, in order.
    await expect.poll(() => storedExchanges(databasePath), { timeout: 5000 }).toHaveLength(5)
    expect(storedExchanges(databasePath)).toEqual(['1:K-1', '2:K-2', '3:K-3', '4:K-4', '5:K-5'])
    // Forwarded after the stop: not recorded.
    await validate(proxy, 'K-6')

    const document = (await proxy.control('GET', `/recordings/${id}`)).body.recording
    expect(document.stoppedAt).not.toBeNull()
    expect(document.exchanges.map((e: any) => `${e.seq}:${e.request.body.json.license_key}`)).toEqual([
      '1:K-1',
      '2:K-2',
      '3:K-3',
      '4:K-4',
      '5:K-5'
    ])
    expect(document).toMatchObject({ refused: 0, lost: 0 })
    const log = proxy.logOutput()
    expect(log).toContain('recording: storage refuses writes')
    expect(log).toContain('recording: storage takes writes again')
    expect(log).not.toContain('upstream observer failed')
  })

  it('counts what still waits when the emulator stops with the lock held, and the next start writes that count', async () => {
    const dir = makeTempDir('rec-stop')
    cleanups.push(dir.remove)
    const databasePath = join(dir.path, 'proxy.db')
    const proxy = await proxyAt(databasePath)
    const id = (await proxy.control('POST', '/recordings', { name: 'stopped while locked' })).body.recording
      .id as string
    await validate(proxy, 'K-1')
    await untilObserved(proxy, 1)
    const lock = holdWriteLock(databasePath)
    await validate(proxy, 'K-2')
    await validate(proxy, 'K-3')
    await untilObserved(proxy, 3)

    // The emulator stops while the lock is still held: after waiting for it, nothing can be written.
    await proxy.close()
    expect(proxy.logOutput()).toContain('counted beside the database')
    lock.release()
    expect(storedExchanges(databasePath)).toEqual(['1:K-1'])
    expect(existsSync(`${databasePath}.recordings-lost.json`)).toBe(true)

    const again = await proxyAt(databasePath)
    const document = (await again.control('GET', `/recordings/${id}`)).body.recording
    expect(document.exchanges.map((e: any) => e.seq)).toEqual([1])
    expect(document.lost).toBe(2)
    // Written into the recording itself, the file gone: a third start does not add them again.
    await expect.poll(() => storedCounts(databasePath, id)).toEqual({ refused: 0, lost: 2 })
    expect(existsSync(`${databasePath}.recordings-lost.json`)).toBe(false)
    // The recording still runs after the restart: the next exchange takes the next place.
    await validate(again, 'K-4')
    await untilObserved(again, 4)
    expect(storedExchanges(databasePath)).toEqual(['1:K-1', '2:K-4'])
  })
})
