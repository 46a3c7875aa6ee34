import { mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { runDesktopApp } from '../../src/main/desktop-app'
import type { DesktopApp } from '../../src/main/desktop-app'
import { buildMenuTemplate, MENU_LABELS } from '../../src/main/menu'
import type { MenuActions } from '../../src/main/menu'
import { USER_DATA_ENV } from '../../src/main/user-data'
import { fake, resetFakeElectron } from '../support/fake-electron'
import type { FakeMenuItem } from '../support/fake-electron'
import { makeTempDir } from '../support/temp-dir'

vi.mock('electron', () => import('../support/fake-electron'))

const noActions: MenuActions = {
  copyApiBaseUrl: async () => undefined,
  openDataFolder: async () => undefined,
  resetEmulator: async () => false
}

function roles(items: readonly { role?: string; submenu?: unknown }[]): string[] {
  return items.flatMap((item) => [
    ...(item.role ? [item.role] : []),
    ...(Array.isArray(item.submenu) ? roles(item.submenu as FakeMenuItem[]) : [])
  ])
}

describe('the menu template', () => {
  it('has the usual roles and the Emulator commands', () => {
    const template = buildMenuTemplate(noActions, { platform: 'linux', isPackaged: true, onError: () => undefined })
    expect(roles(template)).toEqual(
      expect.arrayContaining(['fileMenu', 'editMenu', 'windowMenu', 'reload', 'zoomIn', 'togglefullscreen'])
    )
    expect(roles(template)).not.toContain('appMenu')
    expect(roles(template)).not.toContain('toggleDevTools') // not in a packaged app
    const emulator = template.find((item) => item.label === MENU_LABELS.emulator)
    const labels = (emulator?.submenu as FakeMenuItem[]).map((item) => item.label).filter(Boolean)
    expect(labels).toEqual([MENU_LABELS.copyApiBaseUrl, MENU_LABELS.openDataFolder, MENU_LABELS.resetEmulator])
  })

  it('adds the app menu on macOS and developer tools in a dev run', () => {
    const template = buildMenuTemplate(noActions, { platform: 'darwin', isPackaged: false, onError: () => undefined })
    expect(template[0]).toEqual({ role: 'appMenu' })
    expect(roles(template)).toContain('toggleDevTools')
  })

  it('reports a failing command instead of leaving an unhandled rejection', async () => {
    const errors: unknown[] = []
    const failing: MenuActions = { ...noActions, resetEmulator: async () => Promise.reject(new Error('locked')) }
    const template = buildMenuTemplate(failing, {
      platform: 'linux',
      isPackaged: true,
      onError: (error) => errors.push(error)
    })
    const emulator = template.find((item) => item.label === MENU_LABELS.emulator)
    ;(emulator?.submenu as FakeMenuItem[]).find((item) => item.label === MENU_LABELS.resetEmulator)?.click?.()
    await vi.waitFor(() => expect(errors).toEqual([new Error('locked')]))
  })
})

describe('the menu commands in the running app', () => {
  let temp: ReturnType<typeof makeTempDir>
  let app: DesktopApp

  beforeEach(async () => {
    resetFakeElectron()
    temp = makeTempDir('menu')
    const mainDir = join(temp.path, 'out', 'main')
    mkdirSync(mainDir, { recursive: true })
    fake.app.paths = { appData: join(temp.path, 'app-data'), downloads: temp.path }
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
    const address = probe.address()
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const started = await runDesktopApp({
      mainDir,
      preferredPort: address && typeof address === 'object' ? address.port : 0,
      env: { [USER_DATA_ENV]: join(temp.path, 'user-data') }
    })
    if (!started) throw new Error('app did not start')
    app = started
  })
  afterEach(async () => {
    await app.server.stop()
    temp.remove()
  })

  function click(label: string): void {
    const item = fake.applicationMenu?.find(label)
    if (!item?.click) throw new Error(`no menu item ${label}`)
    item.click()
  }

  async function developerCount(): Promise<number> {
    const response = await fetch(`${app.server.baseUrl}/_emulator/developers`, {
      headers: { 'x-emulator-token': app.server.adminToken }
    })
    return ((await response.json()) as { developers: unknown[] }).developers.length
  }

  async function addDeveloper(): Promise<void> {
    const response = await fetch(`${app.server.baseUrl}/_emulator/developers`, {
      method: 'POST',
      headers: { 'x-emulator-token': app.server.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `m${Math.random()}@example.test`, role: 'developer' })
    })
    expect(response.status).toBe(201)
  }

  it('Copy API base URL puts the real URL on the clipboard', () => {
    click(MENU_LABELS.copyApiBaseUrl)
    expect(fake.clipboard.text).toBe(app.server.baseUrl)
  })

  it('Open data folder opens the user-data directory', async () => {
    click(MENU_LABELS.openDataFolder)
    await vi.waitFor(() => expect(fake.shell.openedPaths).toEqual([app.dataDir]))
  })

  it('Open data folder tells the user when the OS cannot open it', async () => {
    fake.shell.openPathResult = 'no file manager'
    click(MENU_LABELS.openDataFolder)
    await vi.waitFor(() =>
      expect(fake.dialog.errorBoxes).toEqual([
        { title: 'Cannot open the data folder', content: `${app.dataDir}: no file manager` }
      ])
    )
  })

  it('Reset emulator... asks first and does nothing when cancelled', async () => {
    await addDeveloper()
    fake.dialog.messageBoxResponse = 0
    click(MENU_LABELS.resetEmulator)
    await vi.waitFor(() => expect(fake.dialog.messageBoxes).toHaveLength(1))
    expect(fake.dialog.messageBoxes[0]).toMatchObject({
      message: 'Reset the emulator?',
      buttons: ['Cancel', 'Reset'],
      cancelId: 0,
      defaultId: 0
    })
    expect(await developerCount()).toBe(1)
    expect(fake.windows[0]?.webContents.reloads).toBe(0)
  })

  it('Reset emulator... empties the emulator once confirmed and reloads the window', async () => {
    await addDeveloper()
    await addDeveloper()
    fake.dialog.messageBoxResponse = 1
    click(MENU_LABELS.resetEmulator)
    await vi.waitFor(() => expect(fake.windows[0]?.webContents.reloads).toBe(1))
    expect(await developerCount()).toBe(0)
  })
})
