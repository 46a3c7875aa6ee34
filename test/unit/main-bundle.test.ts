import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { USER_DATA_ENV } from '../../src/main/user-data'
import { RENDERER_CSP } from '../../src/server/routes/renderer'
import { fake, resetFakeElectron } from '../support/fake-electron'
import { makeTempDir } from '../support/temp-dir'

vi.mock('electron', () => import('../support/fake-electron'))

// The built main bundle (out/main/index.js, what Electron runs), with Electron replaced by the
// fake: checks what only the bundle can show, that the preload and the built UI are found beside
// it and served. The unit project builds it before its tests (test/support/build-bundle.ts).
const root = resolve(import.meta.dirname, '../..')
const bundle = join(root, 'out', 'main', 'index.js')

describe('the built main bundle (out/main/index.js)', () => {
  let temp: ReturnType<typeof makeTempDir>

  beforeAll(async () => {
    resetFakeElectron()
    temp = makeTempDir('bundle')
    fake.app.paths = { appData: join(temp.path, 'app-data'), downloads: temp.path }
    process.env[USER_DATA_ENV] = join(temp.path, 'user-data')
    await import(/* @vite-ignore */ bundle)
    await vi.waitFor(() => expect(fake.windows[0]?.loadedUrls).toHaveLength(1), { timeout: 15_000 })
  })
  afterAll(async () => {
    fake.app.quit()
    await vi.waitFor(() => expect(fake.app.quitted).toBe(true))
    delete process.env[USER_DATA_ENV]
    temp.remove()
  })

  it('prefers port 4747 and loads the window from the server', async () => {
    const [window] = fake.windows
    const url = new URL(window?.loadedUrls[0] ?? '')
    expect(url.hostname).toBe('127.0.0.1')
    expect(Number(url.port)).toBeGreaterThanOrEqual(4747) // 4747, or the next free port
    expect(window?.options.webPreferences?.preload).toBe(join(root, 'out', 'preload', 'index.cjs'))
    expect(existsSync(String(window?.options.webPreferences?.preload))).toBe(true)
  })

  it('serves the built UI with its CSP at that URL', async () => {
    const baseUrl = fake.windows[0]?.loadedUrls[0] ?? ''
    const page = await fetch(baseUrl)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toBe(RENDERER_CSP)
    const html = await page.text()
    expect(html).toContain('<div id="root">')
    const script = /src="\.?(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
    expect(script).toBeDefined()
    expect((await fetch(`${baseUrl}${script}`)).status).toBe(200)
  })
})
