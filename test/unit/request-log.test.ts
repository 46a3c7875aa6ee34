import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { newPluginKey, newPluginSecret } from '../../src/core/credentials/credential-material'
import { faultOf, MAX_BODY_CHARS, queryOf, withoutTrailingTokenRun } from '../../src/core/inspector/redact-exchange'
import { matchesFilter } from '../../src/core/inspector/request-filter'
import { createRequestLog, FLUSH_DELAY_MS, POST_BATCH } from '../../src/core/inspector/request-log'
import type { RequestLog } from '../../src/core/inspector/request-log'
import { REQUEST_LOG_THREAD_NAME } from '../../src/core/inspector/request-log-protocol'
import type { RequestCapture, RequestFilter } from '../../src/core/inspector/types'
import { previewOf, redactHeaders, redactText, redactUrl } from '../../src/core/redaction/redact'
import { nativeBindingOption } from '../../src/core/store/native-binding'
import { requestLogPathFor } from '../../src/core/store/request-log-database'
import { openStore } from '../../src/core/store/store'
import type { Store } from '../../src/core/store/store'
import { authKindOf } from '../../src/server/inspector/auth-kind'
import { isServiceRequest, pathOf, surfaceOf } from '../../src/server/inspector/surfaces'
import { requestCapture } from '../support/request-capture'
import { makeTempDir } from '../support/temp-dir'

const ADMIN_TOKEN = 'admin-token-0123456789abcdef'
const JWT =
  'eyJhbGciOiJFZERTQSIsImtpZCI6ImFiYyJ9.eyJzdWIiOiJkZXZfMTIzIiwiYXVkIjoiZGV2ZWxvcGVyIn0.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMTIzNDU2Nzg5MA'
const REDACTION = {
  appIdHeader: 'x-svc-app-id',
  credentialHeaders: ['x-svc-plugin-key', 'x-svc-plugin-secret', 'x-svc-api-key'],
  hiddenHeaders: ['x-emulator-token'],
  hiddenValues: [ADMIN_TOKEN]
}

/** The product of an App ID, as the recorder looks it up when it records (set per test). */
let productOfAppId: (appId: string) => string | null = () => null

/**
 * A finished exchange as the recorder hands it over, sorted as the recorder sorts it (surface,
 * auth kind, the App ID's product); override what a test is about.
 */
function capture(overrides: Partial<RequestCapture> = {}): RequestCapture {
  const base = requestCapture({
    url: '/.well-known/jwks.json',
    durationMs: 1.25,
    responseHeaders: { 'content-type': 'application/json; charset=utf-8' },
    response: { kind: 'text', text: '{"ok":true}' },
    redaction: REDACTION,
    ...overrides
  })
  const surface = overrides.surface ?? surfaceOf(base.url)
  const appId = base.requestHeaders[REDACTION.appIdHeader]
  return {
    ...base,
    surface,
    authKind:
      overrides.authKind ??
      authKindOf({
        headers: base.requestHeaders,
        query: queryOf(base.url),
        body: base.requestBody.parsed,
        surface,
        path: pathOf(base.url),
        redaction: base.redaction
      }),
    appIdProductId:
      overrides.appIdProductId !== undefined
        ? overrides.appIdProductId
        : typeof appId === 'string'
          ? productOfAppId(appId.trim())
          : null
  }
}

const jsonBody = (value: unknown) => {
  const bytes = Buffer.from(JSON.stringify(value))
  return { parsed: value, head: [bytes], receivedBytes: bytes.length }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('the request log', () => {
  let dir: ReturnType<typeof makeTempDir>
  let store: Store
  let log: RequestLog
  let logPath: string

  /** The log's file as another connection reads it (what the worker has committed). */
  const storedRows = (): Record<string, unknown>[] => {
    if (!existsSync(logPath)) return []
    const reader = new BetterSqlite3(logPath, { readonly: true, ...nativeBindingOption() })
    try {
      return reader.prepare('SELECT * FROM request_log ORDER BY id').all() as Record<string, unknown>[]
    } catch {
      return []
    } finally {
      reader.close()
    }
  }
  const rowCount = () => storedRows().length
  const open = (capacity: number, clock = createClock()) => {
    log = createRequestLog({ path: logPath, capacity, clock })
    return log
  }

  beforeEach(() => {
    dir = makeTempDir('request-log')
    store = openStore({ path: join(dir.path, 'emulator.db') })
    logPath = requestLogPathFor(store.path)
    store.db
      .prepare(
        "INSERT INTO developers (id, email, role, created_at) VALUES ('dev_1', 'dev@example.test', 'developer', '2024-01-01T00:00:00Z')"
      )
      .run()
    store.db
      .prepare(
        "INSERT INTO products (id, developer_id, name, app_id, created_at) VALUES ('prod_1', 'dev_1', 'Synth', 'app_synth', '2024-01-01T00:00:00Z')"
      )
      .run()
    const byAppId = store.db.prepare('SELECT id FROM products WHERE app_id = ?').pluck()
    productOfAppId = (appId) => (byAppId.get(appId) as string | undefined) ?? null
  })
  afterEach(() => {
    vi.useRealTimers()
    log?.close()
    store.close()
    dir.remove()
  })

  describe('batching', () => {
    it('queues on record, writes nothing on the request path, and a read waits for all of it', () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      open(100)
      for (let i = 0; i < 10; i++) log.record(capture({ url: `/api/x?n=${i}` }))
      expect(log.pending()).toBe(10)
      expect(rowCount()).toBe(0)
      log.flush()
      expect(rowCount()).toBe(10)
      expect(log.pending()).toBe(0)
      expect(log.list({ limit: 100 }).entries).toHaveLength(10)
    })

    it('posts the batch from an unref-ed timer, and the worker writes it on its own', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      open(100)
      log.record(capture())
      log.record(capture())
      vi.advanceTimersByTime(FLUSH_DELAY_MS - 1)
      // Not posted yet, so not written whatever the worker does meanwhile.
      expect(rowCount()).toBe(0)
      expect(log.pending()).toBe(2)
      vi.advanceTimersByTime(1)
      // vi.waitFor polls on real timers.
      await vi.waitFor(() => expect(rowCount()).toBe(2), { timeout: 10_000 })
      expect(log.pending()).toBe(0)
    })

    it('posts a full batch at once instead of waiting out the delay', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      open(10_000)
      for (let i = 0; i < POST_BATCH; i++) log.record(capture())
      vi.useRealTimers()
      await vi.waitFor(() => expect(rowCount()).toBe(POST_BATCH), { timeout: 10_000 })
    })

    it('keeps up with a steady stream, and loses nothing', async () => {
      open(10_000)
      // Real turns of the event loop, each answering 50 requests.
      for (let turn = 0; turn < 100; turn++) {
        for (let i = 0; i < 50; i++) log.record(capture({ url: `/api/x?n=${turn * 50 + i}` }))
        await nextTurn()
      }
      expect(log.list({ limit: 1 }).entries[0]?.id).toBe(5000)
      expect(rowCount()).toBe(5000)
      expect(storedRows().map((row) => row.path)).toEqual(Array.from({ length: 5000 }, (_, n) => `/api/x?n=${n}`))
    })

    it('writes on close and ignores what arrives after', () => {
      open(100)
      log.record(capture())
      expect(log.close()).toBe(0)
      expect(rowCount()).toBe(1)
      log.record(capture())
      log.flush()
      expect(rowCount()).toBe(1)
    })

    // Skipped off Linux: thread names are read from /proc, and the worker names itself there only.
    it.skipIf(process.platform !== 'linux' /* thread names are read from /proc */)(
      'runs in a thread named request-log, as top -H and the bench show it',
      () => {
        const threadNames = () =>
          readdirSync('/proc/self/task').map((tid) => {
            try {
              return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()
            } catch {
              return '' // a thread that ended meanwhile
            }
          })
        open(100)
        log.record(capture())
        log.flush()
        // The worker has written, so it has run past naming itself.
        expect(threadNames()).toContain(REQUEST_LOG_THREAD_NAME)
      }
    )

    it('starts no worker and creates no file for a log that never records', () => {
      open(100)
      expect(log.close()).toBe(0)
      expect(existsSync(logPath)).toBe(false)
    })

    it('tells subscribers about each entry once it is written, with its id, in order', async () => {
      open(100)
      const seen: number[] = []
      const unsubscribe = log.subscribe((entry) => {
        // Written before anyone hears of it.
        expect(storedRows().some((row) => row.id === entry.id)).toBe(true)
        seen.push(entry.id)
      })
      expect(log.subscribers()).toBe(1)
      log.record(capture())
      log.record(capture())
      log.flush()
      await vi.waitFor(() => expect(seen).toEqual([1, 2]))
      unsubscribe()
      expect(log.subscribers()).toBe(0)
      log.record(capture())
      log.flush()
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(seen).toEqual([1, 2])
    })

    it('starts a subscription after the entry it names: none missed, none twice', async () => {
      open(100)
      for (let i = 0; i < 3; i++) log.record(capture())
      const upTo = log.newestId()
      expect(upTo).toBe(3)
      // Written after the replay's fixed point and before the subscription reached the worker.
      for (let i = 0; i < 2; i++) log.record(capture())
      log.flush()
      const first: number[] = []
      const streamedText = new Map<number, string>()
      log.subscribe((entry, text) => {
        first.push(entry.id)
        streamedText.set(entry.id, text)
      }, upTo)
      // A second, later subscriber makes the worker catch up from further back: the first hears nothing twice.
      const second: number[] = []
      const caughtUpText = new Map<number, string>()
      log.subscribe((entry, text) => {
        second.push(entry.id)
        caughtUpText.set(entry.id, text)
      }, 1)
      log.record(capture())
      log.flush()
      await vi.waitFor(() => expect(first).toEqual([4, 5, 6]))
      await vi.waitFor(() => expect(second).toEqual([2, 3, 4, 5, 6]))
      // What a catch-up reads back is the text a live stream searches: the stored request and response.
      const stored = log.get(4)
      expect(caughtUpText.get(4)).toBe(`${JSON.stringify(stored?.request)}\n${JSON.stringify(stored?.response)}`)
      const lateText: string[] = []
      log.subscribe((_, text) => lateText.push(text), 5)
      await vi.waitFor(() => expect(lateText).toHaveLength(1))
      expect(lateText[0]).toBe(streamedText.get(6))
    })

    it('keeps going when a subscriber throws, and reports it', async () => {
      open(100)
      const errors: unknown[] = []
      log.onWriteError((error) => errors.push(error))
      log.subscribe(() => {
        throw new Error('broken listener')
      })
      const ok: number[] = []
      log.subscribe((entry) => ok.push(entry.id))
      log.record(capture())
      log.flush()
      await vi.waitFor(() => expect(ok).toHaveLength(1))
      expect(errors).toHaveLength(1)
    })

    it('stamps each entry with its arrival on the system clock, whatever the emulator clock says', () => {
      const clock = createClock(() => Date.parse('2030-01-01T00:00:10.000Z'))
      open(10, clock)
      log.record(capture({ durationMs: 2500 }))
      clock.setOffsetMs(30 * 86_400_000)
      log.record(capture({ durationMs: 500 }))
      expect(log.list().entries.map((entry) => entry.at)).toEqual([
        '2030-01-01T00:00:09.500Z',
        '2030-01-01T00:00:07.500Z'
      ])
    })

    it('counts what it keeps, and the UI calls among them', () => {
      open(100)
      log.record(capture())
      log.record(capture({ requestHeaders: { 'x-emulator-client': 'ui' } }))
      expect(log.count()).toEqual({ requests: 2, uiRequests: 1 })
    })
  })

  describe('the ring', () => {
    it('keeps the newest rows up to the capacity, oldest deleted first', () => {
      open(5)
      for (let i = 0; i < 12; i++) {
        log.record(capture({ url: `/api/x?n=${i}` }))
        log.flush()
      }
      expect(rowCount()).toBe(5)
      const page = log.list({ limit: 100 })
      expect(page.entries.map((entry) => entry.path)).toEqual([
        '/api/x?n=11',
        '/api/x?n=10',
        '/api/x?n=9',
        '/api/x?n=8',
        '/api/x?n=7'
      ])
      expect(log.get(7)).toBeNull()
      expect(log.get(8)?.path).toBe('/api/x?n=7')
      expect(log.newestId()).toBe(12)
    })

    it('skips the part of a batch the ring would drop at once', () => {
      open(3)
      for (let i = 0; i < 8; i++) log.record(capture({ url: `/api/x?n=${i}` }))
      log.flush()
      expect(log.list().entries.map((entry) => entry.path)).toEqual(['/api/x?n=7', '/api/x?n=6', '/api/x?n=5'])
      expect(log.pending()).toBe(0)
    })

    it('clears rows and what is still queued', () => {
      open(10)
      log.record(capture())
      log.flush()
      log.record(capture())
      expect(log.clear()).toBe(1)
      expect(log.list().entries).toEqual([])
      expect(rowCount()).toBe(0)
      expect(log.pending()).toBe(0)
    })
  })

  describe('a worker that dies', () => {
    it('is said, started anew, and given again what it had not written', async () => {
      process.env.PLE_DYING_WORKER_MARKER = join(dir.path, 'died')
      const errors: string[] = []
      log = createRequestLog({
        path: logPath,
        capacity: 100,
        clock: createClock(),
        workerPath: new URL('../support/dying-request-log-worker.ts', import.meta.url).pathname
      })
      log.onWriteError((error) => errors.push(String(error)))
      for (let i = 0; i < 3; i++) log.record(capture({ url: `/api/x?n=${i}` }))
      // The defect itself, then what the log did about it.
      await vi.waitFor(
        () =>
          expect(errors).toEqual([
            expect.stringContaining('the stand-in worker dies here'),
            expect.stringContaining('a new one writes what it had not')
          ]),
        { timeout: 10_000 }
      )
      expect(existsSync(join(dir.path, 'died'))).toBe(true)
      expect(log.list().entries.map((entry) => entry.path)).toEqual(['/api/x?n=2', '/api/x?n=1', '/api/x?n=0'])
      expect(log.pending()).toBe(0)
      delete process.env.PLE_DYING_WORKER_MARKER
    }, 20_000)
  })

  describe('a log file it cannot use', () => {
    it('sets aside a file that is no log it can read, says so, and starts a new one', () => {
      writeFileSync(logPath, 'not a SQLite file at all '.repeat(200))
      const errors: string[] = []
      open(10)
      log.onWriteError((error) => errors.push(String(error)))
      log.record(capture({ url: '/api/x?n=1' }))
      expect(log.list().entries.map((entry) => entry.path)).toEqual(['/api/x?n=1'])
      const setAside = readdirSync(dir.path).filter((name) => name.startsWith('emulator.db.requests.unreadable-'))
      expect(setAside).toHaveLength(1)
      expect(readFileSync(join(dir.path, setAside[0]!), 'utf8')).toContain('not a SQLite file at all')
      return vi.waitFor(() =>
        expect(errors).toEqual([
          expect.stringContaining(`kept as ${join(dir.path, setAside[0]!)}, and a new log started`)
        ])
      )
    })

    it('starts a new log at its path when its file is deleted while it runs, says so, and goes on numbering', async () => {
      const errors: string[] = []
      open(10)
      log.onWriteError((error) => errors.push(String(error)))
      log.record(capture({ url: '/api/x?n=1' }))
      log.record(capture({ url: '/api/x?n=2' }))
      expect(log.list().entries.map((entry) => entry.id)).toEqual([2, 1])
      // As `rm emulator.db.requests` leaves them: the WAL and its index stay behind, holding the old file's frames.
      rmSync(logPath)
      expect(existsSync(`${logPath}-wal`)).toBe(true)
      await vi.waitFor(
        () =>
          expect(errors).toEqual([
            expect.stringContaining(`the request log file ${logPath} was deleted or replaced while the emulator ran`)
          ]),
        { timeout: 5000 }
      )
      log.record(capture({ url: '/api/x?n=3' }))
      expect(log.list().entries.map((entry) => [entry.id, entry.path])).toEqual([[3, '/api/x?n=3']])
      expect(storedRows().map((row) => row.path)).toEqual(['/api/x?n=3'])
    })

    it('refuses reads as storage while its folder is gone too, keeps what it is given, and writes it once the folder is back', async () => {
      const errors: string[] = []
      open(10)
      log.onWriteError((error) => errors.push(String(error)))
      log.record(capture({ url: '/api/x?n=1' }))
      expect(log.list().entries.map((entry) => entry.id)).toEqual([1])
      // The whole data folder deleted, the emulator database with it.
      rmSync(dir.path, { recursive: true, force: true })
      await vi.waitFor(() => expect(errors).toEqual([expect.stringContaining('was deleted or replaced')]), {
        timeout: 5000
      })
      log.record(capture({ url: '/api/x?n=2' }))
      expect(() => log.list()).toThrow(
        expect.objectContaining({ code: 'STORAGE_READ_ONLY', message: expect.stringContaining(logPath) })
      )
      expect(log.pending()).toBe(1)
      mkdirSync(dir.path)
      // Written at the next attempt (a refused write waits STORAGE_RETRY_MS before the next).
      await vi.waitFor(
        () => expect(log.list().entries.map((entry) => [entry.id, entry.path])).toEqual([[2, '/api/x?n=2']]),
        { timeout: 5000 }
      )
      // One message: the worker never died of it.
      expect(errors).toHaveLength(1)
    })

    it('answers reads with STORAGE_READ_ONLY naming the file while it cannot be opened, and keeps what it was given', () => {
      mkdirSync(logPath)
      open(10)
      log.record(capture({ url: '/api/x?n=1' }))
      expect(() => log.list()).toThrow(
        expect.objectContaining({ code: 'STORAGE_READ_ONLY', message: expect.stringContaining(logPath) })
      )
      expect(log.pending()).toBe(1)
    })
  })

  describe('in memory', () => {
    it('keeps an in-memory log for an in-memory emulator, with no file anywhere', () => {
      log = createRequestLog({ path: requestLogPathFor(':memory:'), capacity: 10, clock: createClock() })
      log.record(capture({ url: '/api/x?n=1' }))
      expect(log.list().entries.map((entry) => entry.path)).toEqual(['/api/x?n=1'])
      expect(existsSync(join(process.cwd(), ':memory:'))).toBe(false)
    })
  })

  describe('queries', () => {
    const seed = () => {
      open(100)
      log.record(
        capture({
          url: '/api/license/v1/activate',
          method: 'POST',
          status: 201,
          requestHeaders: { 'x-svc-app-id': 'app_synth', 'x-svc-plugin-key': 'k', 'x-svc-plugin-secret': 's' }
        })
      )
      log.record(
        capture({
          url: '/api/license/v1/validate',
          method: 'POST',
          status: 401,
          requestHeaders: { 'x-svc-app-id': 'app_unknown' }
        })
      )
      log.record(
        capture({
          url: '/api/developer/plugin-keys/products/prod_1',
          routeProductId: 'prod_1',
          requestHeaders: { authorization: `Bearer ${JWT}` }
        })
      )
      log.record(
        capture({
          url: '/api/plugin-connections/verify',
          method: 'POST',
          status: 401,
          requestBody: jsonBody({ productId: 'prod_2', appId: 'app_x' })
        })
      )
      log.record(capture({ url: '/api/nowhere/100%_done', status: 404 }))
      log.record(capture({ url: '/api/library?storefront=Main', status: 200 }))
      log.record(capture({ url: '/api/downloads/file_1', method: 'HEAD', status: 206 }))
    }

    it('answers newest first with a summary of each', () => {
      seed()
      const { entries, nextBefore } = log.list()
      expect(entries.map((entry) => entry.id)).toEqual([7, 6, 5, 4, 3, 2, 1])
      expect(nextBefore).toBeNull()
      expect(entries[6]).toMatchObject({
        surface: 'license-v1',
        method: 'POST',
        status: 201,
        authKind: 'product-credential',
        productId: 'prod_1',
        durationMs: 1.3
      })
      expect(entries[4]).toMatchObject({
        surface: 'developer-plugin-keys',
        authKind: 'developer-jwt',
        productId: 'prod_1'
      })
    })

    it('names the product from the route, the body, or the App ID header', () => {
      seed()
      const products = log.list().entries.map((entry) => [entry.path, entry.productId])
      expect(products).toContainEqual(['/api/license/v1/activate', 'prod_1'])
      expect(products).toContainEqual(['/api/license/v1/validate', null])
      expect(products).toContainEqual(['/api/developer/plugin-keys/products/prod_1', 'prod_1'])
      expect(products).toContainEqual(['/api/plugin-connections/verify', 'prod_2'])
    })

    it('filters by surface, status, status class, method, product, auth kind and path', () => {
      seed()
      const paths = (filter: RequestFilter) => log.list(filter).entries.map((entry) => entry.path)
      expect(paths({ surface: 'license-v1' })).toEqual(['/api/license/v1/validate', '/api/license/v1/activate'])
      expect(paths({ status: '401' })).toEqual(['/api/plugin-connections/verify', '/api/license/v1/validate'])
      expect(paths({ status: '2xx' })).toEqual([
        '/api/downloads/file_1',
        '/api/library?storefront=Main',
        '/api/developer/plugin-keys/products/prod_1',
        '/api/license/v1/activate'
      ])
      expect(paths({ status: '4xx', method: 'post' })).toEqual([
        '/api/plugin-connections/verify',
        '/api/license/v1/validate'
      ])
      expect(paths({ method: 'HEAD' })).toEqual(['/api/downloads/file_1'])
      expect(paths({ productId: 'prod_1' })).toEqual([
        '/api/developer/plugin-keys/products/prod_1',
        '/api/license/v1/activate'
      ])
      expect(paths({ authKind: 'developer-jwt' })).toEqual(['/api/developer/plugin-keys/products/prod_1'])
      expect(paths({ path: 'MAIN' })).toEqual(['/api/library?storefront=Main'])
      // `%` and `_` are plain characters, not LIKE wildcards.
      expect(paths({ path: '%_' })).toEqual(['/api/nowhere/100%_done'])
      expect(paths({ path: 'a%' })).toEqual([])
      expect(paths({ status: 'nonsense' })).toEqual([])
    })

    it('searches the whole redacted exchange (q), by source, and records the code and the fault rule', () => {
      seed()
      log.record(
        capture({
          url: '/api/license/v1/activate',
          method: 'POST',
          status: 403,
          requestHeaders: { 'x-emulator-client': 'tester' },
          requestBody: jsonBody({ license_key: 'ABCDE-TRIAL', instance_id: 'Studio-Box-9' }),
          response: { kind: 'text', text: '{"ok":false,"error":"TRIAL_EXPIRED","message":"The trial has ended."}' }
        })
      )
      log.record(
        capture({
          url: '/api/license/v1/validate',
          method: 'POST',
          status: 429,
          requestHeaders: { 'x-emulator-client': 'ui' },
          response: { kind: 'text', text: '{"ok":false,"error":"RATE_LIMITED","message":"Too many requests."}' },
          fault: faultOf({
            id: 'r1',
            method: 'POST',
            route: '/api/license/v1/*',
            kind: 'rate_limit',
            ms: null,
            jitterMs: null,
            status: null,
            probability: 1,
            retryAfterS: 9,
            times: null,
            match: null,
            stage: 'before'
          })
        })
      )
      log.record(
        capture({
          url: '/api/license/v1/validate',
          method: 'POST',
          response: { kind: 'text', text: '{"ok":true,"valid":false,"code":"SUSPENDED"}' }
        })
      )
      const [suspended, limited, trial] = log.list({ limit: 3 }).entries
      expect(trial).toMatchObject({ source: 'tester', errorCode: 'TRIAL_EXPIRED', fault: null })
      expect(limited).toMatchObject({
        source: 'ui',
        errorCode: 'RATE_LIMITED',
        fault: { ruleId: 'r1', kind: 'rate_limit', label: 'rate_limit POST /api/license/v1/* (retry after 9 s)' }
      })
      expect(suspended).toMatchObject({ source: 'client', errorCode: 'SUSPENDED' })

      const paths = (filter: RequestFilter) => log.list(filter).entries.map((entry) => entry.id)
      expect(paths({ q: 'studio-box-9' })).toEqual([trial?.id])
      expect(paths({ q: 'abcde-trial' })).toEqual([trial?.id])
      expect(paths({ q: 'storefront=main' })).toHaveLength(1)
      expect(paths({ source: ['ui'] })).toEqual([limited?.id])
      expect(paths({ source: ['client', 'tester'] })).not.toContain(limited?.id)
    })

    it('agrees with the live stream filter on every entry', () => {
      seed()
      const filters: RequestFilter[] = [
        {},
        { surface: 'library' },
        { status: '401' },
        { status: '2xx' },
        { method: 'post' },
        { productId: 'prod_1' },
        { authKind: 'none' },
        { path: 'v1' },
        { status: '4xx', surface: 'license-v1' },
        { source: ['client'] },
        { source: ['ui', 'tester'] }
      ]
      const everything = log.list({ limit: 500 }).entries
      for (const filter of filters) {
        expect(log.list({ ...filter, limit: 500 }).entries, JSON.stringify(filter)).toEqual(
          everything.filter((entry) => matchesFilter(entry, filter))
        )
      }
    })

    it('pages with limit and a before cursor', () => {
      seed()
      const first = log.list({ limit: 3 })
      expect(first.entries.map((entry) => entry.id)).toEqual([7, 6, 5])
      expect(first.nextBefore).toBe(5)
      const second = log.list({ limit: 3, before: 5 })
      expect(second.entries.map((entry) => entry.id)).toEqual([4, 3, 2])
      const third = log.list({ limit: 3, before: second.nextBefore ?? 0 })
      expect(third.entries.map((entry) => entry.id)).toEqual([1])
      expect(third.nextBefore).toBeNull()
      expect(log.list({ limit: 2, before: 6, surface: 'license-v1' }).entries.map((entry) => entry.id)).toEqual([2, 1])
    })

    it('lists newer entries oldest first for a reconnecting stream', () => {
      seed()
      expect(log.after(4, 10).map((entry) => entry.id)).toEqual([5, 6, 7])
      expect(log.after(0, 2).map((entry) => entry.id)).toEqual([1, 2])
    })

    it('reads what is still queued (a read flushes first)', () => {
      open(10)
      log.record(capture())
      expect(log.list().entries).toHaveLength(1)
    })
  })

  describe('redaction at batch time', () => {
    it('stores no plugin key, plugin secret, JWT, token, claim token or admin token', () => {
      open(100)
      const key = newPluginKey()
      const secret = newPluginSecret()
      const claim = 'clm_0123456789abcdefghijABCDEFGHIJ'
      const plainSecret = 'plain-looking-secret-value'
      log.record(
        capture({
          method: 'POST',
          url: `/api/library/claim?claim=${claim}&token=opaque-library-token-value&note=${ADMIN_TOKEN}`,
          requestHeaders: {
            authorization: `Bearer ${JWT}`,
            'x-svc-app-id': 'app_synth',
            'x-svc-plugin-key': key,
            'x-svc-plugin-secret': plainSecret,
            'x-emulator-token': ADMIN_TOKEN,
            cookie: 'session=opaque-cookie-value'
          },
          requestBody: jsonBody({
            claim_token: claim,
            nested: { pluginSecret: secret, note: `key ${key}` },
            admin: ADMIN_TOKEN
          }),
          responseHeaders: { 'content-type': 'application/json', 'set-cookie': ['a=opaque-set-cookie-value'] },
          response: {
            kind: 'text',
            text: JSON.stringify({
              ok: true,
              library_token: 'opaque-issued-token',
              license_token: JWT,
              one_time_reveal: { pluginKey: key, pluginSecret: secret }
            })
          }
        })
      )
      log.flush()
      const stored = JSON.stringify(storedRows())
      for (const value of [
        key,
        secret,
        JWT,
        claim,
        plainSecret,
        ADMIN_TOKEN,
        'opaque-library-token-value',
        'opaque-cookie-value',
        'opaque-set-cookie-value',
        'opaque-issued-token'
      ]) {
        expect(stored.includes(value), value).toBe(false)
      }
      const entry = log.get(1)
      expect(entry?.request.headers.authorization).toBe(`Bearer ${previewOf(JWT)}`)
      expect(entry?.request.headers['x-svc-app-id']).toBe('app_synth')
      expect(entry?.request.headers['x-svc-plugin-key']).toBe(previewOf(key))
      expect(entry?.request.headers['x-emulator-token']).toBe('[hidden]')
      expect(entry?.request.query.claim).toBe(previewOf(claim))
      expect(entry?.request.query.note).toBe('[hidden]')
      // Product credential headers say more about the caller than a Bearer beside them.
      expect(entry?.authKind).toBe('product-credential')
      expect(entry?.productId).toBe('prod_1')
    })

    it('shows an unparsed body as the text that arrived, and binary bodies as a size', () => {
      open(100)
      const malformed = Buffer.from(`{"license_key": "abc", "secret": "${newPluginSecret()}"`)
      log.record(
        capture({
          method: 'POST',
          requestHeaders: { 'content-type': 'application/json' },
          requestBody: {
            parsed: undefined,
            head: [malformed.subarray(0, 10), malformed.subarray(10)],
            receivedBytes: malformed.length
          }
        })
      )
      log.record(
        capture({
          method: 'POST',
          requestBody: { parsed: undefined, head: [Buffer.from([0, 1, 2, 3])], receivedBytes: 4 }
        })
      )
      log.record(
        capture({
          responseHeaders: { 'content-type': 'application/octet-stream', 'content-length': '100' },
          response: { kind: 'stream' }
        })
      )
      log.record(
        capture({
          responseHeaders: { 'content-type': 'image/png' },
          response: { kind: 'bytes', bytes: new Uint8Array(64) }
        })
      )
      log.record(capture({ aborted: true, status: 0, response: { kind: 'none' } }))
      log.flush()
      const [aborted, bytes, stream, binary, text] = log.list().entries.map((entry) => log.get(entry.id))
      expect(text?.request.bodyInfo).toMatchObject({ kind: 'text', bytes: malformed.length, truncated: false })
      expect(text?.request.body).toBe(redactText(malformed.toString()))
      expect(binary?.request).toMatchObject({ body: null, bodyInfo: { kind: 'binary', bytes: 4 } })
      expect(stream?.response).toMatchObject({ body: null, bodyInfo: { kind: 'stream', bytes: 100 } })
      expect(bytes?.response).toMatchObject({ body: null, bodyInfo: { kind: 'binary', bytes: 64 } })
      expect(aborted?.status).toBe(0)
      expect(aborted?.response.bodyInfo.note).toContain('closed')
    })

    it("keeps a license token's header and claims, redacted, and never its signature", () => {
      open(100)
      const key = newPluginKey()
      const secret = newPluginSecret()
      const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
      const signature = Buffer.from('a-signature-of-sixty-four-bytes-or-so-0123456789-abcdefghijklmn').toString(
        'base64url'
      )
      const claims = {
        product_id: 'prod_1',
        license: { kind: 'perpetual', status: 'active', expires_at: null, max_activations: 2, activation_count: 1 },
        instance_id: 'studio-mac',
        nonce: 'n-123',
        iss: 'plugin-license-emulator',
        aud: 'app_synth',
        sub: 'lic_1',
        iat: 1_700_000_000,
        exp: 1_700_086_400,
        // What no claim may carry, in case an upstream puts it there: each kept as a preview only.
        plugin_secret: secret,
        note: `key ${key}`,
        nested: JWT,
        admin: ADMIN_TOKEN
      }
      const header = { alg: 'EdDSA', kid: 'kid-1', typ: 'license+jwt' }
      const token = `${segment(header)}.${segment(claims)}.${signature}`
      log.record(
        capture({
          method: 'POST',
          url: '/api/license/v1/validate',
          requestBody: jsonBody({ license_key: 'K-1', data: { license_token: token } }),
          response: { kind: 'text', text: JSON.stringify({ ok: true, valid: true, license_token: token, other: JWT }) }
        })
      )
      log.flush()
      const stored = JSON.stringify(storedRows())
      for (const value of [signature, token, key, secret, JWT, ADMIN_TOKEN])
        expect(stored.includes(value), value).toBe(false)
      const entry = log.get(1)
      // A JWT that is not a license token (typ JWT) is only previewed, as before.
      expect(entry?.response.licenseTokens).toHaveLength(1)
      const decoded = entry?.response.licenseTokens?.[0]
      expect(decoded?.field).toBe('license_token')
      expect(decoded?.header).toEqual(header)
      expect(decoded?.claims).toEqual({
        ...claims,
        plugin_secret: previewOf(secret),
        note: `key ${previewOf(key)}`,
        nested: previewOf(JWT),
        admin: '[hidden]'
      })
      expect((entry?.response.body as { license_token: string }).license_token).toBe(previewOf(token))
      expect(entry?.request.licenseTokens?.map((one) => one.field)).toEqual(['data.license_token'])
    })

    it('keeps a response just past 16 KiB cut, with every secret in its kept part redacted', () => {
      open(100)
      const secret = newPluginSecret()
      const jwt = JWT
      // About 20 KB: more than is kept, less than the 64 KiB a tap copies.
      const items = Array.from({ length: 150 }, (_, i) => ({ i, name: `Item ${i}`, note: 'x'.repeat(80) }))
      const answer = {
        plugin_secret: 'plain words, a secret by its name',
        token: jwt,
        key: secret,
        items,
        admin: ADMIN_TOKEN
      }
      const text = JSON.stringify(answer)
      expect(text.length).toBeGreaterThan(MAX_BODY_CHARS)
      log.record(capture({ method: 'GET', url: '/api/library', response: { kind: 'text', text } }))
      log.flush()
      const entry = log.get(1)
      expect(entry?.response.bodyInfo).toMatchObject({ kind: 'json', truncated: true, bytes: text.length })
      const kept = entry?.response.body as string
      expect(kept.length).toBeLessThanOrEqual(MAX_BODY_CHARS)
      expect(kept).toContain('"plugin_secret":"plain wo')
      expect(kept).toContain(previewOf(jwt))
      expect(kept).toContain(previewOf(secret))
      const stored = JSON.stringify(storedRows())
      for (const value of ['plain words, a secret by its name', jwt, secret, ADMIN_TOKEN])
        expect(stored.includes(value), value).toBe(false)
    })

    it('records an answer sent in chunks exactly as the same answer sent as one text', () => {
      open(100)
      const secret = newPluginSecret()
      // Multi-byte characters, and chunk ends that split them: only what is kept is decoded.
      const items = Array.from({ length: 400 }, (_, i) => ({ i, name: `Prodüct ${i} \u{1F3B9}`, secret }))
      const big = JSON.stringify({ token: JWT, items })
      const small = JSON.stringify({ token: JWT, items: items.slice(0, 3) })
      const inPieces = (text: string, size: number) => {
        const bytes = Buffer.from(text)
        const pieces: Buffer[] = []
        for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size))
        return pieces
      }
      for (const text of [big, small]) {
        log.record(capture({ method: 'GET', url: '/api/library', response: { kind: 'text', text } }))
        log.record(
          capture({ method: 'GET', url: '/api/library', response: { kind: 'chunks', chunks: inPieces(text, 4099) } })
        )
      }
      log.flush()
      const [bigText, bigChunks, smallText, smallChunks] = [1, 2, 3, 4].map((id) => log.get(id))
      expect(bigText?.response.bodyInfo).toMatchObject({ kind: 'json', truncated: true })
      expect(bigChunks?.response).toEqual(bigText?.response)
      expect(smallText?.response.bodyInfo).toMatchObject({ kind: 'json', truncated: false })
      expect(smallChunks?.response).toEqual(smallText?.response)
      const stored = JSON.stringify(storedRows())
      for (const value of [secret, JWT]) expect(stored.includes(value), value).toBe(false)
    })

    it('cuts bodies past 16 KiB after redacting them', () => {
      open(100)
      const secret = newPluginSecret()
      const big = { items: Array.from({ length: 2000 }, (_, i) => ({ i, secret })) }
      log.record(
        capture({ method: 'POST', requestBody: jsonBody(big), response: { kind: 'text', text: JSON.stringify(big) } })
      )
      // A tap that stopped at its limit, in the middle of a secret: the half secret goes too.
      const cut = Buffer.from(`not json ${secret}`.slice(0, 30))
      log.record(
        capture({
          method: 'POST',
          requestHeaders: { 'content-type': 'text/plain' },
          requestBody: { parsed: undefined, head: [cut], receivedBytes: 1_000_000 }
        })
      )
      log.flush()
      const whole = log.get(1)
      expect(whole?.request.bodyInfo).toMatchObject({ kind: 'json', truncated: true })
      expect(typeof whole?.request.body).toBe('string')
      expect((whole?.request.body as string).length).toBe(MAX_BODY_CHARS)
      expect(JSON.stringify(whole)).not.toContain(secret)
      expect(whole?.response.bodyInfo.truncated).toBe(true)
      const partial = log.get(2)
      expect(partial?.request.body).toBe('not json ')
      expect(partial?.request.bodyInfo).toMatchObject({ truncated: true, bytes: 1_000_000 })
    })
  })
})

describe('what the inspector records, and under which surface', () => {
  it('records the service API only', () => {
    for (const url of [
      '/api/license/v1/activate',
      '/api/library?token=x',
      '/.well-known/jwks.json',
      '/api/nowhere',
      '/_emulatorish'
    ]) {
      expect(isServiceRequest(url), url).toBe(true)
    }
    for (const url of [
      '/_emulator',
      '/_emulator/requests?token=x',
      '/openapi.json',
      '/openapi.json/',
      '/',
      '/?x=1',
      '/favicon.ico',
      '/index.html',
      '/assets/index-Ab12.js',
      '/assets/index-Cd34.css'
    ]) {
      expect(isServiceRequest(url), url).toBe(false)
    }
  })

  it('names surfaces by path prefix', () => {
    expect(surfaceOf('/api/developer/plugin-keys/products/p1/reveal-secret')).toBe('developer-plugin-keys')
    expect(surfaceOf('/api/developer/plugin-keys/products')).toBe('developer-plugin-keys')
    expect(surfaceOf('/api/developer/plugin-keys')).toBe('legacy')
    expect(surfaceOf('/api/developer/plugin-keys/reveal-secret')).toBe('legacy')
    expect(surfaceOf('/api/plugin-connections/verify')).toBe('plugin-connections')
    expect(surfaceOf('/api/library/claim?claim=x')).toBe('library')
    expect(surfaceOf('/api/license/v1/library-token')).toBe('license-v1')
    expect(surfaceOf('/api/downloads/f1')).toBe('downloads')
    expect(surfaceOf('/.well-known/jwks.json')).toBe('well-known')
    expect(surfaceOf('/api/libraryx')).toBe('other')
  })
})

describe('redaction helpers the inspector adds', () => {
  it('previews secret headers by name, keeps the auth scheme, and hides listed headers whole', () => {
    const out = redactHeaders(
      {
        Authorization: `Bearer ${JWT}`,
        'x-acme-plugin-secret': 'whatever-it-looks-like',
        'x-emulator-token': ADMIN_TOKEN,
        accept: 'application/json',
        'set-cookie': ['a=b', 'c=d'],
        gone: undefined
      },
      { previewed: new Set(['x-acme-plugin-secret']), hidden: new Set(['x-emulator-token']) }
    )
    expect(out).toEqual({
      authorization: `Bearer ${previewOf(JWT)}`,
      'x-acme-plugin-secret': previewOf('whatever-it-looks-like'),
      'x-emulator-token': '[hidden]',
      accept: 'application/json',
      'set-cookie': [previewOf('a=b'), previewOf('c=d')]
    })
  })

  it('drops the token-like run a cut body ends with, and nothing before it', () => {
    const secret = newPluginSecret()
    expect(withoutTrailingTokenRun(`{"pluginSecret":"${secret.slice(0, 20)}`)).toBe('{"pluginSecret":"')
    expect(withoutTrailingTokenRun('a+b/c=d-e.f~g_h')).toBe('')
    expect(withoutTrailingTokenRun('ends with a space ')).toBe('ends with a space ')
    expect(withoutTrailingTokenRun('')).toBe('')
  })

  it('catches reseller claim tokens in free text', () => {
    const claim = 'clm_0123456789abcdefghijABCDEF'
    expect(redactText(`claim ${claim} now`)).toBe(`claim ${previewOf(claim)} now`)
  })

  it('hides a control-plane query token whole, not even a preview', () => {
    expect(redactUrl(`/_emulator/requests/stream?token=${ADMIN_TOKEN}&surface=library`)).toBe(
      '/_emulator/requests/stream?token=%5Bhidden%5D&surface=library'
    )
    // Elsewhere the usual preview stays (the redactUrl unit tests pin it).
    expect(redactUrl(`/api/library?token=${ADMIN_TOKEN}`)).toBe(`/api/library?token=${previewOf(ADMIN_TOKEN)}`)
  })
})
