import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { Server } from 'node:net'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { nativeBindingOption } from '../../src/core/store/native-binding'
import { closeServerOnQuit, startEmbeddedServer } from '../../src/main/server-lifecycle'
import type { EmbeddedServer } from '../../src/main/server-lifecycle'
import { RENDERER_CSP } from '../../src/server/routes/renderer'
import { fake, resetFakeElectron } from '../support/fake-electron'
import { makeTempDir } from '../support/temp-dir'

vi.mock('electron', () => import('../support/fake-electron'))

// The embedded server as main starts it: buildServer (the CLI's), real SQLite, real HTTP.

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
  const address = probe.address()
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  if (!address || typeof address !== 'object') throw new Error('no port')
  return address.port
}

describe('the embedded server', () => {
  let temp: ReturnType<typeof makeTempDir>
  let rendererDir: string
  const servers: EmbeddedServer[] = []
  const blockers: Server[] = []

  beforeEach(() => {
    resetFakeElectron()
    temp = makeTempDir('lifecycle')
    rendererDir = join(temp.path, 'renderer')
    mkdirSync(rendererDir)
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><div id="root"></div>')
  })
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()))
    await Promise.all(
      blockers.splice(0).map((blocker) => new Promise<void>((resolve) => blocker.close(() => resolve())))
    )
    temp.remove()
  })

  async function start(preferredPort?: number): Promise<EmbeddedServer> {
    const server = await startEmbeddedServer({
      dataDir: join(temp.path, 'data'),
      runtimeKey: randomBytes(32),
      nativeBinding: undefined,
      rendererDir,
      preferredPort: preferredPort ?? (await freePort())
    })
    servers.push(server)
    return server
  }

  it('listens on 127.0.0.1 only, with a fresh admin token, and serves the UI with its CSP', async () => {
    const server = await start()
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(server.origin).toBe(server.baseUrl)
    expect(server.adminToken.length).toBeGreaterThanOrEqual(32)
    const address = server.app.server.address()
    expect(address && typeof address === 'object' ? address.address : null).toBe('127.0.0.1')

    const page = await fetch(`${server.baseUrl}/`)
    expect(page.headers.get('content-security-policy')).toBe(RENDERER_CSP)
    const health = await fetch(`${server.baseUrl}/_emulator/health`)
    expect(health.status).toBe(200)
    const info = await fetch(`${server.baseUrl}/_emulator/developers`, {
      headers: { 'x-emulator-token': server.adminToken }
    })
    expect(info.status).toBe(200)
  })

  it('moves to the next port when the preferred one is taken, and reports the real URL', async () => {
    const preferred = await freePort()
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(preferred, '127.0.0.1', () => resolve()))
    blockers.push(blocker)
    const server = await start(preferred)
    expect(Number(new URL(server.baseUrl).port)).not.toBe(preferred)
    // The API's own idea of its base URL (given to plugins) is the port it really got.
    const health = await fetch(`${server.baseUrl}/_emulator/health`)
    expect(health.status).toBe(200)
  })

  it('keeps data in the data directory and resets it through core', async () => {
    const server = await start()
    expect(server.databasePath).toBe(join(temp.path, 'data', 'emulator.db'))
    const headers = { 'x-emulator-token': server.adminToken, 'content-type': 'application/json' }
    const created = await fetch(`${server.baseUrl}/_emulator/developers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: 'a@example.test', role: 'developer' })
    })
    expect(created.status).toBe(201)
    const listed = async () =>
      ((await (await fetch(`${server.baseUrl}/_emulator/developers`, { headers })).json()) as { developers: unknown[] })
        .developers
    expect(await listed()).toHaveLength(1)
    server.reset()
    expect(await listed()).toHaveLength(0)
  })

  it('stops listening and closes the database, once, however often stop is called', async () => {
    const server = await start()
    const { baseUrl, databasePath } = server
    await Promise.all([server.stop(), server.stop()])
    await server.stop()
    await expect(fetch(`${baseUrl}/_emulator/health`)).rejects.toThrow()
    // A clean close checkpoints the WAL and removes it; the file opens and reads normally.
    expect(existsSync(`${databasePath}-wal`)).toBe(false)
    const db = new BetterSqlite3(databasePath, { readonly: true, ...nativeBindingOption() })
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
  })

  it('holds the quit until the server has stopped, then quits', async () => {
    const server = await start()
    let stopped = false
    const stop = vi.fn(async () => {
      await server.stop()
      stopped = true
    })
    closeServerOnQuit(fake.app, { stop }, () => undefined)
    fake.app.quit()
    expect(fake.app.quitted).toBe(false) // held
    await vi.waitFor(() => expect(fake.app.quitted).toBe(true))
    expect(stopped).toBe(true)
    expect(stop).toHaveBeenCalledTimes(1)
    expect(fake.app.quitRequests).toBe(2) // the user's, then the one after closing
  })

  it('still quits when closing fails, and reports the failure', async () => {
    const errors: unknown[] = []
    closeServerOnQuit(fake.app, { stop: async () => Promise.reject(new Error('disk gone')) }, (error) =>
      errors.push(error)
    )
    fake.app.quit()
    await vi.waitFor(() => expect(fake.app.quitted).toBe(true))
    expect(errors).toEqual([new Error('disk gone')])
  })
})
