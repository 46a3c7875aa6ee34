import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, closeSync, mkdirSync, openSync, rmSync, statfsSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { requestLogPathFor } from '../../src/core/store/request-log-database'
import { startServeCli } from '../support/cli-process'
import { libraryTokenOf } from '../support/commerce'
import { expectError } from '../support/credentials'
import { withReadOnlyDatabase } from '../support/database'
import { startEmulator } from '../support/emulator'
import type { HttpResult, TestEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import { makeTempDir } from '../support/temp-dir'

// docs/api.md section 1, "Storage faults": a full disk, a read-only file and another process's
// write lock, each for real. Every case asserts the answers, that the server keeps answering, and
// that nothing acknowledged is lost (integrity check, rows counted by another connection).

const isRoot = process.getuid?.() === 0
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A database path in a temp folder of its own (removed after the test). */
function databaseIn(name: string): string {
  const dir = makeTempDir(name)
  cleanups.push(dir.remove)
  return join(dir.path, 'emulator.db')
}

async function emulatorAt(databasePath: string, runtimeKey = randomBytes(32), busyTimeoutMs?: number) {
  const emu = await startEmulator({ databasePath, runtimeKey, storageBusyTimeoutMs: busyTimeoutMs })
  cleanups.push(() => emu.close())
  return emu
}

/** A licensed, activated customer: rows in most tables, and a validate to call. */
async function licensedWorld(emu: TestEmulator, maxActivations?: number) {
  const credential = await productWithCredential(emu)
  const customer = await emu.control('POST', '/customers', {
    email: `c-${randomBytes(3).toString('hex')}@example.test`
  })
  const bought = await emu.control('POST', '/purchases', {
    customerId: customer.body.customer.id,
    productId: credential.productId,
    ...(maxActivations === undefined ? {} : { maxActivations })
  })
  expect(bought.status, bought.text).toBe(201)
  const plugin = pluginClient(emu, credential)
  const licenseKey = bought.body.license.key as string
  expect((await plugin.activate(licenseKey, 'studio-mac')).status).toBe(201)
  return { credential, plugin, licenseKey }
}

const counted = (databasePath: string) =>
  withReadOnlyDatabase(databasePath, (db) => ({
    integrity: db.pragma('integrity_check', { simple: true }),
    customers: (db.prepare('SELECT COUNT(*) AS n FROM customers').get() as { n: number }).n,
    activations: (db.prepare('SELECT COUNT(*) AS n FROM activations').get() as { n: number }).n
  }))

const timed = async <T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> => {
  const start = performance.now()
  const result = await work()
  return { result, ms: performance.now() - start }
}

const health = (emu: TestEmulator) => emu.request('GET', '/_emulator/health')
const newCustomer = (emu: TestEmulator) =>
  emu.control('POST', '/customers', { email: `w-${randomBytes(4).toString('hex')}@example.test` })
const logLines = (emu: TestEmulator, text: string) =>
  emu
    .logOutput()
    .split('\n')
    .filter((line) => line.includes(text))

describe('another process holds the write lock', () => {
  /** A sqlite3 shell inside BEGIN IMMEDIATE, as QA's database viewer is; resolves once it holds the lock. */
  async function lockHolder(databasePath: string) {
    // -bail: if the lock cannot be had (the server writing at that instant, past .timeout), nothing says 'holding'.
    const shell = spawn('sqlite3', ['-bail', databasePath], { stdio: ['pipe', 'pipe', 'inherit'] })
    let output = ''
    shell.stdout.on('data', (chunk) => (output += String(chunk)))
    shell.stdin.write(".timeout 5000\nBEGIN IMMEDIATE;\nSELECT 'holding';\n")
    for (let i = 0; i < 200 && !output.includes('holding'); i++) await new Promise((r) => setTimeout(r, 25))
    expect(output).toContain('holding')
    const release = async () => {
      if (shell.exitCode !== null) return
      shell.stdin.end('ROLLBACK;\n.quit\n')
      await new Promise((resolve) => shell.once('exit', resolve))
    }
    cleanups.push(release)
    return { release }
  }

  it('answers health, reads and validate at once, and writes STORAGE_BUSY with Retry-After after the busy timeout', async () => {
    const databasePath = databaseIn('busy')
    const emu = await emulatorAt(databasePath, undefined, 1500)
    const { plugin, licenseKey } = await licensedWorld(emu)
    const before = counted(databasePath)

    const holder = await lockHolder(databasePath)
    // A write waits (asynchronously) while health and reads answer.
    const writing = timed(() => newCustomer(emu))
    const live = await timed(() => health(emu))
    expect(live.result.status).toBe(200)
    expect(live.ms).toBeLessThan(1000)
    const read = await timed(() => emu.control('GET', '/customers'))
    expect(read.result.status, read.result.text).toBe(200)
    expect(read.ms).toBeLessThan(1000)
    const validated = await timed(() => plugin.validate(licenseKey, 'studio-mac'))
    expect(validated.result.status, validated.result.text).toBe(200)
    expect(validated.result.body.valid).toBe(true)
    expect(validated.ms).toBeLessThan(1000)

    const refused = await writing
    expectError(refused.result, 503, 'STORAGE_BUSY')
    expect(refused.result.headers.get('retry-after')).toBe('1')
    expect(refused.result.body.message).toContain(databasePath)
    expect(refused.result.body.retryAfter).toBe(1)
    expect(refused.ms).toBeGreaterThanOrEqual(1400)
    // Activate (a grouped write) gives up the same way.
    expectError(await plugin.activate(licenseKey, 'second-machine'), 503, 'STORAGE_BUSY')
    const during = await health(emu)
    expect(during.body.storage).toMatchObject({ writable: false, error: 'STORAGE_BUSY' })

    await holder.release()
    expect((await newCustomer(emu)).status).toBe(201)
    expect((await health(emu)).body.storage).toEqual({ writable: true })
    // One line when the episode started, one when it ended: not one per request.
    expect(logLines(emu, 'storage: writes fail')).toHaveLength(1)
    expect(logLines(emu, 'storage: writes succeed again')).toHaveLength(1)
    expect(counted(databasePath)).toEqual({ ...before, customers: before.customers + 1 })
  })

  it('answers the reads that take a snapshot (state export, preview, the library) at once, and writes still work after', async () => {
    const databasePath = databaseIn('busy-reads')
    const emu = await emulatorAt(databasePath)
    const { licenseKey } = await licensedWorld(emu)
    const customerId = (await emu.control('GET', '/customers')).body.customers[0].id as string
    const libraryToken = await libraryTokenOf(emu, customerId)
    const exported = (await emu.control('GET', '/state')).body.state

    const holder = await lockHolder(databasePath)
    // Each read answers from the last commit, as it would with no lock held: no wait, no 503.
    const state = await timed(() => emu.control('GET', '/state'))
    expect(state.result.status, state.result.text).toBe(200)
    expect(state.result.body.state).toEqual(exported)
    expect(state.ms).toBeLessThan(1000)
    const preview = await timed(() => emu.control('POST', '/state/preview', exported))
    expect(preview.result.status, preview.result.text).toBe(200)
    expect(preview.result.body.preview.counts.licenses).toBe(1)
    expect(preview.ms).toBeLessThan(1000)
    const library = await timed(() => emu.request('GET', '/api/library', { token: libraryToken }))
    expect(library.result.status, library.result.text).toBe(200)
    expect(JSON.stringify(library.result.body)).toContain(licenseKey)
    expect(library.ms).toBeLessThan(1000)
    // A read is no failed write: health stays writable and nothing is logged.
    expect((await health(emu)).body.storage).toEqual({ writable: true })
    expect(logLines(emu, 'storage: writes fail')).toHaveLength(0)

    // The reads took no lock of their own: once the holder lets go, a write goes through.
    await holder.release()
    expect((await newCustomer(emu)).status).toBe(201)
  })

  it('changes to what the server holds in memory only (faults, clock, upstream, replay, drift) never wait for the lock', async () => {
    const databasePath = databaseIn('busy-memory')
    // No wait at all: a request that waited for the lock would answer STORAGE_BUSY.
    const emu = await emulatorAt(databasePath, undefined, 0)
    await lockHolder(databasePath)
    expectError(await newCustomer(emu), 503, 'STORAGE_BUSY')
    const changes = [
      await emu.control('PUT', '/faults', { rules: [{ route: '/api/**', kind: 'latency', ms: 1 }] }),
      await emu.control('DELETE', '/faults'),
      await emu.control('PUT', '/clock', { advanceS: 3600 }),
      await emu.control('PUT', '/upstream', { url: null }),
      await emu.control('PUT', '/replay', { recording: null }),
      await emu.control('DELETE', '/drift')
    ]
    for (const answer of changes) expect(answer.status, answer.text).toBe(200)
    expect((await emu.control('GET', '/clock')).body.offsetS).toBe(3600)
  })

  it('serve --storage-busy-timeout-ms sets the wait: 0 answers STORAGE_BUSY at once, naming the wait', async () => {
    const databasePath = databaseIn('busy-cli')
    const token = randomBytes(16).toString('hex')
    const serving = await startServeCli([
      '--port',
      '0',
      '--db',
      databasePath,
      '--admin-token',
      token,
      '--storage-busy-timeout-ms',
      '0'
    ])
    cleanups.push(() => serving.cli.kill())
    const holder = await lockHolder(databasePath)
    const refused = await fetch(`${serving.baseUrl}/_emulator/customers`, {
      method: 'POST',
      headers: { 'x-emulator-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'busy@example.test' })
    })
    expect(refused.status).toBe(503)
    const body = (await refused.json()) as { error: string; message: string }
    expect(body.error).toBe('STORAGE_BUSY')
    expect(body.message).toContain('waited 0 s')
    await holder.release()
    const written = await fetch(`${serving.baseUrl}/_emulator/customers`, {
      method: 'POST',
      headers: { 'x-emulator-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'busy@example.test' })
    })
    expect(written.status).toBe(201)
  })

  it('keeps recording what plugins send while another program holds the database lock (the log has a file of its own)', async () => {
    const databasePath = databaseIn('busy-log')
    const emu = await emulatorAt(databasePath, undefined, 0)
    const { plugin, licenseKey } = await licensedWorld(emu)
    const holder = await lockHolder(databasePath)
    expectError(await newCustomer(emu), 503, 'STORAGE_BUSY')
    for (let i = 0; i < 3; i++) expect((await plugin.validate(licenseKey, 'studio-mac')).body.valid).toBe(true)
    const listed = await emu.control('GET', '/requests?path=validate&limit=10')
    expect(listed.status, listed.text).toBe(200)
    expect(listed.body.requests).toHaveLength(3)
    await holder.release()
  })

  it('serve stopped while the log file is locked says how many requests the inspector could not write', async () => {
    const databasePath = databaseIn('busy-exit')
    const serving = await startServeCli(['--port', '0', '--db', databasePath, '--storage-busy-timeout-ms', '0'])
    cleanups.push(() => serving.cli.kill())
    // A first request makes the log's file; let it reach the file before the lock is taken.
    await fetch(`${serving.baseUrl}/.well-known/jwks.json`)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const holder = await lockHolder(requestLogPathFor(databasePath))
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${serving.baseUrl}/api/plugin-connections/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}'
      })
      expect(answer.status).toBe(400)
    }
    serving.cli.child.kill('SIGTERM')
    expect(await serving.cli.exited).toEqual({ code: 0, signal: null })
    const lines = serving.cli
      .stderr()
      .split('\n')
      .filter((line) => line.includes('request inspector: storage still refused writes at close'))
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ requests: 3 })
    await holder.release()
  })
})

/** Writes `path` until the disk refuses another block (ENOSPC), whatever else writes meanwhile. */
function fillToTheLastBlock(path: string): void {
  const fd = openSync(path, 'w')
  try {
    const block = Buffer.alloc(4096, 1)
    for (;;) writeSync(fd, block)
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
}

/** Calls `write` (numbered from 0) until it answers anything but 201, at most `attempts` times; that answer. */
async function untilRefused(attempts: number, write: (i: number) => Promise<HttpResult>): Promise<HttpResult> {
  for (let i = 0; i < attempts; i++) {
    const answer = await write(i)
    if (answer.status !== 201) return answer
  }
  throw new Error(`${attempts} writes all acknowledged: the disk never refused one`)
}

describe('the disk holding the database fills up', () => {
  // Skipped unless run as root: a real full disk needs a small tmpfs mounted, and only root can
  // mount one (CI and this machine run as root, so it runs there).
  it.skipIf(!isRoot /* not root: no tmpfs can be mounted */)(
    'answers 507 STORAGE_FULL, keeps every acknowledged write, and writes again once space is freed (a real 2 MB tmpfs)',
    async () => {
      const dir = makeTempDir('full')
      cleanups.push(dir.remove)
      const mount = join(dir.path, 'disk')
      mkdirSync(mount)
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mount])
      cleanups.push(() => void execFileSync('umount', ['-l', mount]))
      const databasePath = join(mount, 'emulator.db')
      const emu = await emulatorAt(databasePath)
      const { plugin, licenseKey } = await licensedWorld(emu, 100)
      // What leaves room for the database to grow a little: freed later, as a user would.
      const filler = join(mount, 'filler.bin')
      // Whatever the database and its WAL take by now, leave it about 256 KB to grow into.
      const { bavail, bsize } = statfsSync(mount)
      writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 256 * 1024), 1))

      let customers = (await emu.control('GET', '/customers')).body.customers.length as number
      let activations = 1
      const full = await untilRefused(3000, async (i) => {
        const answer = await emu.control('POST', '/customers', {
          email: `fill-${i}@example.test`,
          name: 'x'.repeat(200)
        })
        if (answer.status === 201) customers++
        return answer
      })
      expectError(full, 507, 'STORAGE_FULL')
      expect(full.body.message).toContain(databasePath)
      expect(full.body.message).toMatch(/Free space/)
      // Whatever a rolled-back write gave back (the request log writes its own file on this disk
      // too) is taken as well.
      const rest = join(mount, 'rest.bin')
      fillToTheLastBlock(rest)
      // Reads and validate still answer; health says why writes fail.
      expect((await emu.control('GET', '/customers')).status).toBe(200)
      expect((await plugin.validate(licenseKey, 'studio-mac')).body.valid).toBe(true)
      expect((await health(emu)).body.storage).toMatchObject({ writable: false, error: 'STORAGE_FULL' })
      // A write can still fit in WAL space a checkpoint has freed for reuse (SQLite overwrites
      // it, needing no new block): such a write is acknowledged and counted, and the next ones
      // meet the full disk. The refusal, not its exact moment, is what is asserted.
      const refused = await untilRefused(200, async () => {
        const answer = await newCustomer(emu)
        if (answer.status === 201) customers++
        return answer
      })
      expectError(refused, 507, 'STORAGE_FULL')
      // A grouped write (activate) refuses the same way.
      const refusedActivation = await untilRefused(90, async (i) => {
        const answer = await plugin.activate(licenseKey, `during-full-${i}`)
        if (answer.status === 201) activations++
        return answer
      })
      expectError(refusedActivation, 507, 'STORAGE_FULL')

      rmSync(filler)
      rmSync(rest)
      const again = await newCustomer(emu)
      expect(again.status, again.text).toBe(201)
      customers++
      expect((await health(emu)).body.storage).toEqual({ writable: true })
      // Each time writes failed is said once, and so is each time they succeeded again after it.
      const failed = logLines(emu, 'storage: writes fail').length
      expect(failed).toBeGreaterThanOrEqual(1)
      expect(logLines(emu, 'storage: writes succeed again')).toHaveLength(failed)
      // The request log's batch writer kept the refused requests and wrote them once it could.
      await expect
        .poll(async () => (await emu.control('GET', '/requests?status=507')).body.requests.length as number, {
          timeout: 5000
        })
        .toBeGreaterThan(0)
      const after = counted(databasePath)
      expect(after.integrity).toBe('ok')
      expect(after.customers).toBe(customers)
      expect(after.activations).toBe(activations)
    },
    60_000
  )
})

describe('the database file is deleted under a running server', () => {
  it('says so at once, refuses writes with 503 STORAGE_READ_ONLY instead of losing them at exit, and still answers reads', async () => {
    const databasePath = databaseIn('deleted')
    const emu = await emulatorAt(databasePath)
    const { plugin, licenseKey } = await licensedWorld(emu)
    const before = (await emu.control('GET', '/state')).body.state

    rmSync(databasePath)
    // The path is looked at once a second: no write is needed for health to say it.
    let storage = (await health(emu)).body.storage
    for (let i = 0; i < 300 && storage.writable; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      storage = (await health(emu)).body.storage
    }
    expect(storage).toMatchObject({ writable: false, error: 'STORAGE_READ_ONLY', restartNeeded: true })
    expect(storage.message).toContain(`${databasePath} was deleted, moved or replaced`)

    // A write would go to a file no longer there: refused, saying why.
    const refused = await newCustomer(emu)
    expectError(refused, 503, 'STORAGE_READ_ONLY')
    expect(refused.body.message).toContain('was deleted, moved or replaced')
    expectError(await plugin.activate(licenseKey, 'second-machine'), 503, 'STORAGE_READ_ONLY')
    // What it held still answers, so it can be exported before a restart.
    const validated = await plugin.validate(licenseKey, 'studio-mac')
    expect(validated.status, validated.text).toBe(200)
    expect(validated.body.valid).toBe(true)
    const exported = await emu.control('GET', '/state')
    expect(exported.status, exported.text).toBe(200)
    expect(exported.body.state).toEqual(before)
    expect(logLines(emu, 'storage: writes fail')).toHaveLength(1)
  })
})

describe('a read-only database file', () => {
  it('answers reads and validate, refuses writes with 503 STORAGE_READ_ONLY, and loses nothing', async () => {
    const dir = makeTempDir('readonly')
    cleanups.push(dir.remove)
    const writable = join(dir.path, 'rw')
    mkdirSync(writable)
    const runtimeKey = randomBytes(32)
    const first = await emulatorAt(join(writable, 'emulator.db'), runtimeKey)
    const { credential, licenseKey } = await licensedWorld(first)
    await first.close()
    cleanups.pop()
    const before = counted(join(writable, 'emulator.db'))

    // Root ignores file modes: a read-only bind mount is what really refuses root's writes.
    let folder = writable
    if (isRoot) {
      folder = join(dir.path, 'ro')
      mkdirSync(folder)
      execFileSync('mount', ['--bind', writable, folder])
      cleanups.push(() => void execFileSync('umount', ['-l', folder]))
      execFileSync('mount', ['-o', 'remount,ro,bind', folder])
    } else {
      chmodSync(join(writable, 'emulator.db'), 0o444)
      chmodSync(writable, 0o555)
      cleanups.push(() => chmodSync(writable, 0o755))
    }
    const databasePath = join(folder, 'emulator.db')
    const emu = await emulatorAt(databasePath, runtimeKey)
    expect((await health(emu)).status).toBe(200)
    expect((await emu.control('GET', '/customers')).body.customers).toHaveLength(before.customers)
    const validated = await pluginClient(emu, credential).validate(licenseKey, 'studio-mac')
    expect(validated.body.valid, validated.text).toBe(true)
    const refused = await newCustomer(emu)
    expectError(refused, 503, 'STORAGE_READ_ONLY')
    expect(refused.body.message).toContain(databasePath)
    expect(refused.headers.get('retry-after')).toBeNull()
    expect((await health(emu)).body.storage).toMatchObject({ writable: false, error: 'STORAGE_READ_ONLY' })
    expect(counted(databasePath)).toEqual(before)
  })
})
