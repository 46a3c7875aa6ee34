import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { runDesktopApp } from '../../src/main/desktop-app'
import { bringToFront, claimSingleInstance } from '../../src/main/single-instance'
import { USER_DATA_ENV } from '../../src/main/user-data'
import { fake, FakeBrowserWindow, resetFakeElectron } from '../support/fake-electron'
import { makeTempDir } from '../support/temp-dir'

vi.mock('electron', () => import('../support/fake-electron'))

describe('single instance', () => {
  let temp: ReturnType<typeof makeTempDir>
  beforeEach(() => {
    resetFakeElectron()
    temp = makeTempDir('single')
    fake.app.paths = { appData: join(temp.path, 'app-data'), downloads: temp.path }
  })
  afterEach(() => temp.remove())
  const dataDir = () => join(temp.path, 'user-data')
  /** The desktop app as main runs it, over a user-data directory of the test's own. */
  const startApp = () => {
    const mainDir = join(temp.path, 'out', 'main')
    mkdirSync(mainDir, { recursive: true })
    return runDesktopApp({ mainDir, preferredPort: 0, env: { [USER_DATA_ENV]: dataDir() } })
  }

  it('the first instance holds the lock and is brought forward when a second one starts', () => {
    const window = new FakeBrowserWindow()
    window.minimize()
    window.visible = false
    expect(claimSingleInstance(fake.app, () => bringToFront(window))).toBe(true)
    fake.app.emit('second-instance', {}, ['electron', '.'], '/')
    expect(window).toMatchObject({ minimized: false, visible: true, focused: true })
  })

  it('the second instance does not get the lock', () => {
    fake.app.singleInstanceLock = false
    const onSecond = vi.fn()
    expect(claimSingleInstance(fake.app, onSecond)).toBe(false)
    expect(fake.app.listenerCount('second-instance')).toBe(0)
  })

  it('bringing forward ignores a window that is gone', () => {
    const window = new FakeBrowserWindow()
    window.close()
    expect(() => bringToFront(window)).not.toThrow()
    expect(() => bringToFront(null)).not.toThrow()
    expect(window.focused).toBe(false)
  })

  it('a second app quits at once: no server, no window, the database untouched', async () => {
    fake.app.singleInstanceLock = false
    const app = await startApp()
    expect(app).toBeNull()
    expect(fake.app.quitRequests).toBe(1)
    expect(fake.windows).toHaveLength(0)
    expect(fake.ipcMain.handlers.size).toBe(0)
    // The lock is per user-data directory, so the directory is chosen before asking for it.
    expect(fake.app.getPath('userData')).toBe(dataDir())
  })

  it('the first app focuses its window when a second one is launched', async () => {
    const app = await startApp()
    try {
      const window = fake.windows[0]
      if (!window) throw new Error('no window')
      window.minimize()
      fake.app.emit('second-instance', {}, [], '/')
      expect(window).toMatchObject({ minimized: false, focused: true })
      // With its window closed (macOS keeps the app running), a second launch opens a new one.
      // The app stays in the dock as on macOS: elsewhere closing the last window quits.
      fake.app.removeAllListeners('window-all-closed')
      window.close()
      fake.app.emit('second-instance', {}, [], '/')
      expect(fake.windows).toHaveLength(1)
      expect(fake.windows[0]).not.toBe(window)
      expect(fake.windows[0]?.loadedUrls).toEqual([app?.server.baseUrl])
    } finally {
      await app?.server.stop()
    }
  })

  describe('a launch while the app quits', () => {
    it('opens no window on the closing server: the app starts again once it has exited', async () => {
      const app = await startApp()
      if (!app) throw new Error('the app did not start')
      try {
        const window = fake.windows[0]
        if (!window) throw new Error('no window')
        window.close() // the last window: the app quits (not on macOS)
        if (process.platform === 'darwin') fake.app.quit()
        // Held while the server closes (seconds when another program holds the database's write lock).
        expect(fake.app.quitted).toBe(false)

        fake.app.emit('second-instance', {}, [], '/')
        expect(fake.windows).toHaveLength(0)
        expect(fake.app.relaunchRequests).toBe(0) // not before this instance has let go

        await vi.waitFor(() => expect(fake.app.quitted).toBe(true))
        expect(fake.app.relaunchRequests).toBe(1)
        expect(fake.windows).toHaveLength(0)
        await expect(fetch(`${app.server.baseUrl}/_emulator/health`)).rejects.toThrow() // closed
      } finally {
        await app.server.stop()
      }
    })

    it('a quit with no launch meanwhile does not start the app again', async () => {
      const app = await startApp()
      if (!app) throw new Error('the app did not start')
      fake.windows[0]?.close()
      if (process.platform === 'darwin') fake.app.quit()
      await vi.waitFor(() => expect(fake.app.quitted).toBe(true))
      expect(fake.app.relaunchRequests).toBe(0)
      // After the quit a late event still opens nothing on the closed server.
      fake.app.emit('second-instance', {}, [], '/')
      expect(fake.windows).toHaveLength(0)
    })
  })
})
