import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { runDesktopApp } from '../../src/main/desktop-app'
import type { DesktopApp } from '../../src/main/desktop-app'
import { USER_DATA_ENV } from '../../src/main/user-data'
import { IPC_CHANNELS } from '../../src/preload/channels'
import { fake, FakeBrowserWindow, resetFakeElectron } from '../support/fake-electron'
import { makeTempDir } from '../support/temp-dir'

vi.mock('electron', () => import('../support/fake-electron'))

// The whole main process as wired in desktop-app.ts, with Electron replaced by the fake: a real
// server on 127.0.0.1, a real SQLite file and runtime key in a temp user-data directory.

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  if (!address || typeof address !== 'object') throw new Error('no port')
  return address.port
}

interface Json {
  status: number
  // Assertions read arbitrary response fields; `any` keeps them short.
  body: Record<string, any>
  headers: Headers
}

async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { adminToken?: string; bearer?: string; body?: unknown } = {}
): Promise<Json> {
  const headers: Record<string, string> = {}
  if (options.adminToken) headers['x-emulator-token'] = options.adminToken
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body)
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Json['body']) : {} }
}

describe('the desktop app, wired', () => {
  let temp: ReturnType<typeof makeTempDir>
  let dataDir: string
  let mainDir: string
  let running: DesktopApp[] = []

  beforeEach(() => {
    resetFakeElectron()
    temp = makeTempDir('desktop')
    dataDir = join(temp.path, 'user-data')
    mainDir = join(temp.path, 'out', 'main')
    mkdirSync(mainDir, { recursive: true })
    mkdirSync(join(temp.path, 'out', 'renderer'), { recursive: true })
    writeFileSync(
      join(temp.path, 'out', 'renderer', 'index.html'),
      '<!doctype html><title>UI</title><div id="root"></div>'
    )
    fake.app.paths = { appData: join(temp.path, 'app-data'), downloads: join(temp.path, 'downloads') }
  })
  afterEach(async () => {
    for (const app of running) await app.server.stop()
    running = []
    temp.remove()
  })

  async function start(): Promise<DesktopApp> {
    const app = await runDesktopApp({ mainDir, preferredPort: await freePort(), env: { [USER_DATA_ENV]: dataDir } })
    if (!app) throw new Error(`the app did not start: ${JSON.stringify(fake.dialog.errorBoxes)}`)
    running.push(app)
    return app
  }

  it('serves UI and API on one loopback origin and opens the window on that URL', async () => {
    const app = await start()
    expect(app.server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const [window] = fake.windows
    expect(window?.loadedUrls).toEqual([app.server.baseUrl])

    const page = await fetch(`${app.server.baseUrl}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<div id="root">')
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'")

    const health = await call(app.server.baseUrl, 'GET', '/_emulator/health')
    expect(health.status).toBe(200)
    await vi.waitFor(() => expect(window?.visible).toBe(true))
  })

  it('keeps the database and the runtime key in the user-data directory', async () => {
    const app = await start()
    expect(app.dataDir).toBe(dataDir)
    expect(fake.app.getPath('userData')).toBe(dataDir)
    expect(existsSync(join(dataDir, 'emulator.db'))).toBe(true)
    // The fake offers a real keychain backend (gnome_libsecret): the key is OS-encrypted.
    expect(app.runtimeKeyProtection).toBe('safeStorage')
    expect(existsSync(join(dataDir, 'emulator.db.runtime-key.safestorage'))).toBe(true)
    expect(existsSync(join(dataDir, 'emulator.db.runtime-key'))).toBe(false)
  })

  it('gives the bridge the connection, and a credential made with it can be revealed after a restart', async () => {
    const first = await start()
    const connection = (await fake.ipcMain.invoke(IPC_CHANNELS.connection, `${first.server.baseUrl}/`)) as {
      baseUrl: string
      adminToken: string
    }
    expect(connection.baseUrl).toBe(first.server.baseUrl)

    const admin = connection.adminToken
    const developer = await call(connection.baseUrl, 'POST', '/_emulator/developers', {
      adminToken: admin,
      body: { email: 'desk@example.test', role: 'developer' }
    })
    expect(developer.status).toBe(201)
    const session = await call(
      connection.baseUrl,
      'POST',
      `/_emulator/developers/${developer.body.developer.id}/session`,
      { adminToken: admin, body: {} }
    )
    const product = await call(connection.baseUrl, 'POST', '/_emulator/products', {
      adminToken: admin,
      body: { developerId: developer.body.developer.id, name: 'Desk Synth' }
    })
    const credentialPath = `/api/developer/plugin-keys/products/${product.body.product.id}`
    const created = await call(connection.baseUrl, 'POST', credentialPath, { bearer: session.body.token, body: {} })
    expect(created.status).toBe(201)
    const secret = created.body.one_time_reveal.pluginSecret as string

    // Quit: the server stops and the database closes (SQLite removes its WAL file on a clean close).
    fake.app.quit()
    await vi.waitFor(() => expect(fake.app.quitted).toBe(true))
    expect(existsSync(join(dataDir, 'emulator.db-wal'))).toBe(false)
    running = []

    // A new process: same data, same key (decrypted through safeStorage), a new admin token.
    resetFakeElectron()
    fake.app.paths = { appData: join(temp.path, 'app-data'), downloads: join(temp.path, 'downloads') }
    const second = await start()
    expect(second.server.adminToken).not.toBe(admin)
    const revealed = await call(second.server.baseUrl, 'POST', `${credentialPath}/reveal-secret`, {
      bearer: session.body.token,
      body: {}
    })
    expect(revealed.status).toBe(200)
    expect(revealed.body.one_time_reveal.pluginSecret).toBe(secret)
  })

  it('falls back to a 0600 key file and says so where Linux has no real keychain backend', async () => {
    fake.safeStorage.backend = 'basic_text'
    const app = await start()
    const info = (await fake.ipcMain.invoke(IPC_CHANNELS.appInfo, app.server.baseUrl)) as Record<string, unknown>
    expect(info).toEqual({
      version: '0.0.0-test',
      dataDir,
      runtimeKeyProtection: process.platform === 'linux' ? 'file' : 'safeStorage'
    })
    if (process.platform === 'linux') {
      const keyFile = join(dataDir, 'emulator.db.runtime-key')
      expect(statSync(keyFile).mode & 0o777).toBe(0o600)
      expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32)
    }
  })

  it('refuses the bridge to any page that is not the embedded server', async () => {
    const app = await start()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const port = Number(new URL(app.server.baseUrl).port)
    const strangers = [
      `http://127.0.0.1:${port + 1}/`,
      `http://localhost:${port}/`,
      'https://example.com/',
      'file:///etc/passwd',
      'about:blank',
      null
    ]
    for (const sender of strangers) {
      for (const channel of Object.values(IPC_CHANNELS)) {
        await expect(fake.ipcMain.invoke(channel, sender, 'https://example.com/')).rejects.toThrow(/refused/)
      }
    }
    expect(warn).toHaveBeenCalledTimes(strangers.length * Object.values(IPC_CHANNELS).length)
    warn.mockRestore()
    // Nothing was done on a refused call.
    expect(fake.shell.openedExternal).toEqual([])
    expect(fake.shell.openedPaths).toEqual([])
  })

  it('holds every webContents, the window and any other, to its page', async () => {
    const app = await start()
    const [window] = fake.windows
    expect(window?.webContents.navigate('https://example.com/')).toBe(false)
    expect(window?.webContents.openWindow('https://example.com/new')).toEqual({ action: 'deny' })
    const other = new FakeBrowserWindow()
    expect(other.webContents.navigate(`${app.server.baseUrl}/x`)).toBe(false)
    expect(fake.shell.openedExternal).toEqual([
      'https://example.com/',
      'https://example.com/new',
      `${app.server.baseUrl}/x`
    ])
    // Permission handlers are in place before the window exists.
    expect(await fake.session.request('media', `${app.server.baseUrl}/`)).toBe(false)
    expect(await fake.session.request('clipboard-sanitized-write', `${app.server.baseUrl}/`)).toBe(true)
  })

  it('tells the user and exits when the server cannot start', async () => {
    // A directory where the database file should be: SQLite cannot open it.
    mkdirSync(join(dataDir, 'emulator.db'), { recursive: true })
    fake.safeStorage.available = false
    const app = await runDesktopApp({ mainDir, preferredPort: await freePort(), env: { [USER_DATA_ENV]: dataDir } })
    expect(app).toBeNull()
    expect(fake.app.exitCode).toBe(1)
    expect(fake.dialog.errorBoxes).toHaveLength(1)
    expect(fake.dialog.errorBoxes[0]?.title).toBe('Plugin License Emulator could not start')
    expect(fake.dialog.errorBoxes[0]?.content).toContain('unable to open database file')
    expect(fake.dialog.errorBoxes[0]?.content).toContain(`Data folder: ${dataDir}`)
    expect(fake.windows).toHaveLength(0)
  })

  it('quits when the last window closes (but not on macOS, where apps stay in the dock)', async () => {
    await start()
    fake.windows[0]?.close()
    if (process.platform === 'darwin') expect(fake.app.quitRequests).toBe(0)
    else await vi.waitFor(() => expect(fake.app.quitted).toBe(true))
    running = []
  })
})
