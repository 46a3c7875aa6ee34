import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, safeStorage, screen, session, shell } from 'electron'

import { DEFAULT_PORT } from '../server/server-options'
import { originOf, parseExternalUrl } from './external-url'
import { createBridgeHandlers, registerIpcHandlers } from './ipc'
import { buildMenuTemplate, createMenuActions } from './menu'
import { resolveNativeBinding } from './native-binding'
import { denyPermissions } from './permissions'
import { loadRuntimeKey } from './runtime-key'
import type { RuntimeKeyProtection } from './runtime-key'
import { closeServerOnQuit, DATABASE_FILE, startEmbeddedServer } from './server-lifecycle'
import type { EmbeddedServer, QuitState } from './server-lifecycle'
import { bringToFront, claimSingleInstance } from './single-instance'
import { PRODUCT_NAME, resolveUserDataDir } from './user-data'
import { createMainWindow, restrictNavigation } from './window'
import { WINDOW_STATE_FILE } from './window-state'

export interface DesktopAppOptions {
  /** Directory of the main bundle (out/main): the preload and the built UI sit beside it. */
  mainDir: string
  /** Default 4747, the port `serve` uses; the next free one when it is taken. */
  preferredPort?: number
  env?: NodeJS.ProcessEnv
}

/** The running app, for the entry point and the tests. */
export interface DesktopApp {
  dataDir: string
  server: EmbeddedServer
  runtimeKeyProtection: RuntimeKeyProtection
  window(): BrowserWindow | null
}

/**
 * Wires the OS integration around the embedded server: user-data directory, single instance,
 * permissions, runtime key, server, IPC, menu, window, quit. Resolves to null in a second
 * instance (which quits) or when start-up failed (after telling the user).
 */
export async function runDesktopApp(options: DesktopAppOptions): Promise<DesktopApp | null> {
  const env = options.env ?? process.env
  // Before anything reads userData: the single-instance lock and Chromium's profile live there.
  const dataDir = resolveUserDataDir({
    switchValue: app.commandLine.getSwitchValue('user-data-dir'),
    env,
    appData: app.getPath('appData')
  })
  app.setPath('userData', dataDir)

  let mainWindow: BrowserWindow | null = null
  // Set once the server runs: a second launch then also reopens a closed window (macOS).
  let openWindow: (() => BrowserWindow) | null = null
  // Set once the server runs: while it closes, a second launch becomes a relaunch after the exit.
  let quit: QuitState | null = null
  const onSecondInstance = (): void => {
    if (quit?.quitting()) quit.relaunchAfterQuit()
    else if (mainWindow && !mainWindow.isDestroyed()) bringToFront(mainWindow)
    else if (openWindow) bringToFront(openWindow())
  }
  if (!claimSingleInstance(app, onSecondInstance)) {
    app.quit()
    return null
  }
  app.on('web-contents-created', (_event, contents) => restrictNavigation(contents, openInBrowser, logError))
  app.on('window-all-closed', () => {
    // macOS apps stay in the dock with no window; elsewhere closing the window quits.
    if (process.platform !== 'darwin') app.quit()
  })

  // `electron-vite dev` serves the UI from Vite's dev server (hot reload); everything else loads
  // the embedded server's URL. Never honoured in a packaged app.
  const devRendererUrl = !app.isPackaged && env.ELECTRON_RENDERER_URL ? env.ELECTRON_RENDERER_URL : null
  const devOrigin = devRendererUrl ? originOf(devRendererUrl) : null
  let allowedOrigins: string[] = []

  await app.whenReady()
  denyPermissions(session.defaultSession, () => allowedOrigins)

  let server: EmbeddedServer
  let runtimeKeyProtection: RuntimeKeyProtection
  try {
    const nativeBinding = resolveNativeBinding({
      electronVersion: process.versions.electron,
      abi: process.versions.modules,
      platform: process.platform,
      arch: process.arch,
      isPackaged: app.isPackaged,
      resourcesPath: process.resourcesPath,
      appPath: app.getAppPath(),
      env,
      exists: existsSync
    })
    if (!nativeBinding.ok) throw new Error(nativeBinding.message)
    const runtimeKey = await loadRuntimeKey({
      databasePath: join(dataDir, DATABASE_FILE),
      safeStorage,
      platform: process.platform
    })
    runtimeKeyProtection = runtimeKey.protection
    server = await startEmbeddedServer({
      dataDir,
      runtimeKey: runtimeKey.key,
      nativeBinding: nativeBinding.path,
      rendererDir: join(options.mainDir, '../renderer'),
      preferredPort: options.preferredPort ?? DEFAULT_PORT,
      trustedOrigins: devOrigin ? [devOrigin] : [],
      logStream: process.stderr
    })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    // SQLite's own messages ("unable to open database file") need the place to make sense.
    dialog.showErrorBox(`${PRODUCT_NAME} could not start`, `${reason}\n\nData folder: ${dataDir}`)
    app.exit(1)
    return null
  }
  allowedOrigins = devOrigin ? [server.origin, devOrigin] : [server.origin]
  quit = closeServerOnQuit(app, server, logError)

  registerIpcHandlers(
    ipcMain,
    () => allowedOrigins,
    createBridgeHandlers({
      connection: () => ({ baseUrl: server.baseUrl, adminToken: server.adminToken }),
      appInfo: () => ({ version: app.getVersion(), dataDir, runtimeKeyProtection }),
      dataDir,
      openPath: (path) => shell.openPath(path),
      openInBrowser,
      showSaveDialog: (dialogOptions) =>
        mainWindow ? dialog.showSaveDialog(mainWindow, dialogOptions) : dialog.showSaveDialog(dialogOptions),
      saveDirectory: () => app.getPath('downloads')
    }),
    (channel, url) => console.warn(`[desktop] refused ${channel} from ${url ?? 'a destroyed frame'}`)
  )

  const menuActions = createMenuActions({
    baseUrl: () => server.baseUrl,
    dataDir,
    writeClipboard: (text) => clipboard.writeText(text),
    openPath: (path) => shell.openPath(path),
    confirm: async (confirmOptions) =>
      (mainWindow
        ? await dialog.showMessageBox(mainWindow, confirmOptions)
        : await dialog.showMessageBox(confirmOptions)
      ).response,
    reset: () => server.reset(),
    afterReset: () => mainWindow?.webContents.reload(),
    showError: (title, message) => dialog.showErrorBox(title, message)
  })
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate(menuActions, { platform: process.platform, isPackaged: app.isPackaged, onError: logError })
    )
  )

  const createWindow = (): BrowserWindow => {
    const window = createMainWindow({
      preloadPath: join(options.mainDir, '../preload/index.cjs'),
      url: devRendererUrl ?? server.baseUrl,
      windowStatePath: join(dataDir, WINDOW_STATE_FILE),
      workAreas: screen.getAllDisplays().map((display) => display.workArea),
      icon: windowIcon(options.mainDir),
      onError: logError
    })
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = null
    })
    mainWindow = window
    return window
  }
  openWindow = createWindow
  createWindow()
  app.on('activate', () => {
    // macOS: a click on the dock icon with no window open.
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })

  return { dataDir, server, runtimeKeyProtection, window: () => mainWindow }
}

/** Linux shows this in the task bar; Windows and macOS take the icon from the executable or bundle. */
function windowIcon(mainDir: string): string | undefined {
  if (process.platform !== 'linux') return undefined
  const path = app.isPackaged ? join(process.resourcesPath, 'icon.png') : join(mainDir, '../../resources/icon.png')
  return existsSync(path) ? path : undefined
}

/**
 * The one place that hands a URL to the OS. Callers check it already (window.ts, ipc.ts); it is
 * checked again here so that no future caller can pass file:, smb: or a custom protocol through.
 */
async function openInBrowser(url: string): Promise<void> {
  const safe = parseExternalUrl(url)
  if (!safe) throw new Error(`Not opened in the browser (only http and https): ${url.slice(0, 200)}`)
  await shell.openExternal(safe) // eng-disable OPEN_EXTERNAL_JS_CHECK -- checked just above: http(s) only
}

function logError(error: unknown): void {
  console.error('[desktop]', error)
}
