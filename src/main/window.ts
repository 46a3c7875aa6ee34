import { BrowserWindow } from 'electron'
import type { WebContents } from 'electron'

import { parseExternalUrl } from './external-url'
import { PRODUCT_NAME } from './user-data'
import { initialWindowBounds, MIN_WINDOW_SIZE, readWindowState, trackWindowState } from './window-state'
import type { Rectangle } from './window-state'

/**
 * Every webContents (the window and anything it might spawn) stays on the page it was given:
 * no navigation, no new windows, no webviews. http(s) links open in the OS browser instead,
 * after parseExternalUrl's check.
 */
export function restrictNavigation(
  contents: WebContents,
  openInBrowser: (url: string) => Promise<void>,
  onError: (error: unknown) => void
): void {
  const openOutside = (url: string): void => {
    const safe = parseExternalUrl(url)
    if (safe) openInBrowser(safe).catch(onError)
  }
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event) => {
    event.preventDefault()
    openOutside(event.url)
  })
  // Subframes: refused silently (the main frame's navigations are handled above).
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

export interface MainWindowOptions {
  preloadPath: string
  /** The page to show: the embedded server's base URL. */
  url: string
  windowStatePath: string
  workAreas: readonly Rectangle[]
  /** Window icon (Linux and Windows use it; macOS takes the bundle's). */
  icon?: string | undefined
  onError(error: unknown): void
}

/**
 * The one app window, at its remembered place when that is on a display, shown once the page
 * has painted (no white flash). It loads the server's URL so the UI and the API share one origin.
 */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const initial = initialWindowBounds(readWindowState(options.windowStatePath), options.workAreas)
  const window = new BrowserWindow({
    ...initial.bounds,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: PRODUCT_NAME,
    show: false,
    ...(options.icon ? { icon: options.icon } : {}),
    // The renderer is a web page with no Node: isolated from the preload's world, sandboxed, with
    // web security, no webviews, no insecure content. The only door out is the preload's bridge.
    // (Written out here, not built elsewhere, so `npm run audit:electron` can read it.)
    webPreferences: {
      // Reviewed: src/preload/index.ts exposes five closures over fixed channels, never ipcRenderer,
      // and main answers them only for frames of the server's origin (src/main/ipc.ts).
      preload: options.preloadPath, // eng-disable PRELOAD_JS_CHECK -- reviewed, see above
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      // Middle-click ("auxclick") would open links in a new window; the open handler denies those
      // anyway, this removes the event altogether.
      disableBlinkFeatures: 'Auxclick',
      safeDialogs: true,
      spellcheck: false
    }
  })
  if (initial.maximized) window.maximize()
  trackWindowState(window, options.windowStatePath, { onError: options.onError })
  window.once('ready-to-show', () => window.show())
  window.loadURL(options.url).catch((error: unknown) => {
    // Show the (empty) window anyway: an app that never appears looks like one that never started.
    if (!window.isDestroyed()) window.show()
    options.onError(error)
  })
  return window
}
