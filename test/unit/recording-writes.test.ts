import { existsSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { createRecordingService } from '../../src/core/recordings/recording-service'
import type { RecordingQueueLimits } from '../../src/core/recordings/recording-writer'
import { nativeBindingOption } from '../../src/core/store/native-binding'
import type { Store } from '../../src/core/store/store'
import type { ForwardedExchange } from '../../src/core/upstream/forwarded-exchange'
import { useStoreFile } from '../support/store-file'

// The recording writer (src/core/recordings/recording-writer.ts) against real refusals of a real
// SQLite file: another connection's write lock (SQLITE_BUSY) and a size cap (SQLITE_FULL).

function exchange(key: string): ForwardedExchange {
  return {
    requestId: `req-${key}`,
    method: 'POST',
    path: '/api/license/v1/validate',
    rawQuery: '',
    requestHeaders: { 'content-type': 'application/json', 'x-svc-app-id': 'app_1' },
    requestBody: Buffer.from(JSON.stringify({ license_key: key })),
    upstreamUrl: 'http://upstream.test',
    status: 200,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: Buffer.from(JSON.stringify({ ok: true, valid: true })),
    responseBodyTruncated: false,
    requestBodyWhole: null,
    responseBodyWhole: null,
    startedAt: '2026-11-27T00:00:00.000Z',
    durationMs: 2
  }
}

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup()
})

describe('recording while storage refuses writes', () => {
  const storeFile = useStoreFile('recording-writes')

  /** A literal the recordings must never hold (as the admin token is): an exchange holding it is refused. */
  const CANARY = 'canary-literal-never-recorded'
  const serviceOver = (store: Store, queueLimits?: RecordingQueueLimits) => {
    const recordings = createRecordingService({ store, clock: createClock(), queueLimits })
    recordings.protect({ fingerprintRules: () => ({ credentialHeaders: new Set() }), secretLiterals: [CANARY] })
    return recordings
  }
  /** Another connection to the file, as another program would open it. */
  const otherConnection = () => {
    const other = new BetterSqlite3(storeFile.path, nativeBindingOption())
    cleanups.push(() => {
      if (other.inTransaction) other.exec('ROLLBACK')
      other.close()
    })
    return other
  }
  /** Another program holding the file's write lock, as a sqlite3 shell inside BEGIN IMMEDIATE does. */
  const lockHeldByAnother = (): BetterSqlite3.Database => {
    const other = otherConnection()
    other.exec('BEGIN IMMEDIATE')
    return other
  }
  /** The kinds of the notices the service gives from now on, in order. */
  const noticesOf = (recordings: ReturnType<typeof serviceOver>): string[] => {
    const heard: string[] = []
    recordings.onNotice((notice) => heard.push(notice.kind))
    return heard
  }
  /** What the file holds, read by another connection: license keys by seq, and the counts. */
  const stored = (id: string) => {
    const other = new BetterSqlite3(storeFile.path, { readonly: true, ...nativeBindingOption() })
    const keys = (
      other.prepare('SELECT seq, exchange FROM recording_exchanges WHERE recording_id = ? ORDER BY seq').all(id) as {
        seq: number
        exchange: string
      }[]
    ).map((row) => `${row.seq}:${JSON.parse(row.exchange).request.body.json.license_key}`)
    const counts = other.prepare('SELECT refused, lost FROM recordings WHERE id = ?').get(id)
    other.close()
    return { keys, counts }
  }
  const keysOf = (document: { exchanges: { seq: number; request: { body: unknown } }[] }) =>
    document.exchanges.map((e) => `${e.seq}:${(e.request.body as { json: { license_key: string } }).json.license_key}`)

  it('keeps what waits within its bound, counts the newest past it as lost, and writes both once the lock is let go', async () => {
    const store = storeFile.open({ busyTimeoutMs: 100 })
    const recordings = serviceOver(store, { exchanges: 3, chars: 1024 * 1024 })
    const { id } = recordings.start({ name: 'bounded', upstreamUrl: null })
    recordings.observe(exchange('K-1'))
    const other = lockHeldByAnother()
    for (const key of ['K-2', 'K-3', 'K-4', 'K-5', 'K-6']) recordings.observe(exchange(key))
    // Three wait in memory (the bound); the two newest are lost and take no place in the sequence.
    expect(stored(id)).toEqual({ keys: ['1:K-1'], counts: { refused: 0, lost: 0 } })
    const during = recordings.document(id)
    expect(keysOf(during)).toEqual(['1:K-1', '2:K-2', '3:K-3', '4:K-4'])
    expect(during.lost).toBe(2)
    expect(recordings.list()[0]).toMatchObject({ exchanges: 4, lost: 2 })

    other.exec('ROLLBACK')
    // Stopped before they are written: they were observed while it ran, so they go to it.
    recordings.stop(id)
    expect(stored(id).keys).toEqual(['1:K-1'])
    await expect
      .poll(() => stored(id), { timeout: 5000 })
      .toEqual({
        keys: ['1:K-1', '2:K-2', '3:K-3', '4:K-4'],
        counts: { refused: 0, lost: 2 }
      })
    recordings.observe(exchange('K-7'))
    expect(keysOf(recordings.document(id))).toEqual(['1:K-1', '2:K-2', '3:K-3', '4:K-4'])
  })

  it('keeps what a full database refuses, writes it once there is room, and at close counts what is left in the recording', async () => {
    const store = storeFile.open({ busyTimeoutMs: 100 })
    const recordings = serviceOver(store)
    const { id } = recordings.start({ name: 'full', upstreamUrl: null })
    recordings.observe(exchange('K-1'))
    // The database may not grow by a page: inserts fail SQLITE_FULL, as on a full disk.
    const pages = store.db.pragma('page_count', { simple: true }) as number
    store.db.pragma(`max_page_count = ${pages}`)
    const big = (key: string) => ({
      ...exchange(key),
      responseBody: Buffer.from(JSON.stringify({ pad: 'x'.repeat(20_000) }))
    })
    recordings.observe(big('K-2'))
    recordings.observe(big('K-3'))
    expect(stored(id).keys).toEqual(['1:K-1'])
    expect(keysOf(recordings.document(id))).toEqual(['1:K-1', '2:K-2', '3:K-3'])

    store.db.pragma('max_page_count = 1073741823')
    await expect.poll(() => stored(id).keys, { timeout: 5000 }).toEqual(['1:K-1', '2:K-2', '3:K-3'])

    // Full again, and the emulator stops: the exchanges cannot be written, but their count can.
    store.db.pragma(`max_page_count = ${store.db.pragma('page_count', { simple: true }) as number}`)
    recordings.observe(big('K-4'))
    recordings.observe(big('K-5'))
    const report = await recordings.close()
    expect(report).toMatchObject({ written: 0, savedIn: 'database' })
    expect(report.lost.get(id)).toBe(2)
    expect(stored(id)).toEqual({ keys: ['1:K-1', '2:K-2', '3:K-3'], counts: { refused: 0, lost: 2 } })
  })

  it('carries both counts to the next start when the lock is still held at close: lost exchanges and refused ones', async () => {
    const store = storeFile.open({ busyTimeoutMs: 100 })
    const recordings = serviceOver(store)
    const { id } = recordings.start({ name: 'locked at close', upstreamUrl: null })
    recordings.observe(exchange('K-1'))
    const other = lockHeldByAnother()
    recordings.observe(exchange('K-2'))
    // The platform's answer holds a secret: the exchange is refused, and only its count is kept.
    recordings.observe({ ...exchange('K-3'), responseBody: Buffer.from(JSON.stringify({ note: CANARY })) })
    expect(recordings.list()[0]).toMatchObject({ exchanges: 2, lost: 0, refused: 1 })
    const heard = noticesOf(recordings)
    const report = await recordings.close()
    // The close waited (the busy timeout) and said so.
    expect(heard).toContain('waiting-at-close')
    expect(report).toMatchObject({ written: 0, savedIn: 'file' })
    expect(report.lost.get(id)).toBe(1)
    expect(report.refused.get(id)).toBe(1)
    other.exec('ROLLBACK')
    store.close()
    expect(stored(id)).toEqual({ keys: ['1:K-1'], counts: { refused: 0, lost: 0 } })

    // The next start adds both in, and the file goes.
    const again = serviceOver(storeFile.open())
    expect(again.document(id)).toMatchObject({ lost: 1, refused: 1 })
    await expect.poll(() => stored(id).counts, { timeout: 5000 }).toEqual({ refused: 1, lost: 1 })
    expect(existsSync(`${storeFile.path}.recordings-lost.json`)).toBe(false)
  })

  it('says it waits for the lock at close only when it does: not after the waits were ended (a second signal)', async () => {
    // Ten minutes of busy timeout: the test ends only because the waits were ended first.
    const store = storeFile.open({ busyTimeoutMs: 600_000 })
    const recordings = serviceOver(store)
    const { id } = recordings.start({ name: 'second signal first', upstreamUrl: null })
    lockHeldByAnother()
    recordings.observe(exchange('K-1'))
    store.stopWaitingForLock()
    const heard = noticesOf(recordings)
    const report = await recordings.close()
    expect(heard).not.toContain('waiting-at-close')
    expect(report.lost.get(id)).toBe(1)
  })

  it('names the upstream of a recording started while forwarding was off after a storage fault ends, trying no write during it', async () => {
    const store = storeFile.open({ busyTimeoutMs: 100 })
    const recordings = serviceOver(store)
    const { id } = recordings.start({ name: 'named later', upstreamUrl: null })
    const other = lockHeldByAnother()
    const heard = noticesOf(recordings)
    recordings.observe(exchange('K-1'))
    // Naming it was tried and refused; the exchange waits in memory.
    expect(heard).toEqual(['waiting'])
    // Every write tried from now on is counted (the store's own, passed through); the writer's
    // own next try is a second away.
    let writesTried = 0
    const transaction = store.transaction
    store.transaction = (work, options) => {
      writesTried += 1
      return transaction(work, options)
    }
    recordings.observe(exchange('K-2'))
    recordings.observe(exchange('K-3'))
    expect(writesTried).toBe(0)
    store.transaction = transaction
    other.exec('ROLLBACK')
    await expect.poll(() => stored(id).keys, { timeout: 5000 }).toEqual(['1:K-1', '2:K-2', '3:K-3'])
    expect(heard).toEqual(['waiting', 'written'])
    expect(recordings.list()[0]).toMatchObject({ upstreamUrl: null })
    recordings.observe(exchange('K-4'))
    expect(recordings.list()[0]).toMatchObject({ upstreamUrl: 'http://upstream.test/' })
  })

  it('reads the running recording once: with none running, a forwarded exchange costs no query', () => {
    const store = storeFile.open()
    const recordings = serviceOver(store)
    const first = recordings.start({ name: 'first', upstreamUrl: null })
    recordings.observe(exchange('K-1'))
    const second = recordings.start({ name: 'second', upstreamUrl: null })
    recordings.observe(exchange('K-2'))
    recordings.remove(second.id)
    // Another program renames the table: any query of it would throw now.
    const other = otherConnection()
    other.exec('ALTER TABLE recordings RENAME TO recordings_elsewhere')
    expect(() => recordings.observe(exchange('K-3'))).not.toThrow()
    other.exec('ALTER TABLE recordings_elsewhere RENAME TO recordings')
    expect(keysOf(recordings.document(first.id))).toEqual(['1:K-1'])
    expect(recordings.list().map((summary) => summary.id)).toEqual([first.id])
    expect(recordings.list()[0]?.stoppedAt).not.toBeNull()
    // A new service (a restart) finds no recording running either, and one started runs.
    const again = serviceOver(store)
    const third = again.start({ name: 'third', upstreamUrl: null })
    again.observe(exchange('K-4'))
    expect(keysOf(again.document(third.id))).toEqual(['1:K-4'])
  })
})
