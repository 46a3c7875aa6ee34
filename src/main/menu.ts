import type { MenuItemConstructorOptions } from 'electron'

/** The app's own menu commands; the rest of the menu is Electron's standard roles. */
export interface MenuActions {
  copyApiBaseUrl(): Promise<void>
  openDataFolder(): Promise<void>
  /** Asks first; resolves to whether the emulator was reset. */
  resetEmulator(): Promise<boolean>
}

export const MENU_LABELS = {
  emulator: 'Emulator',
  copyApiBaseUrl: 'Copy API base URL',
  openDataFolder: 'Open data folder',
  resetEmulator: 'Reset emulator...'
} as const

/**
 * The application menu: the usual File/Edit/View/Window roles (macOS adds the app menu) plus an
 * Emulator menu. Edit's roles matter beyond looks: without them copy and paste shortcuts do not
 * work in the window on macOS. Developer tools only in unpackaged runs.
 */
export function buildMenuTemplate(
  actions: MenuActions,
  options: { platform: NodeJS.Platform; isPackaged: boolean; onError(error: unknown): void }
): MenuItemConstructorOptions[] {
  const isMac = options.platform === 'darwin'
  const run = (work: () => Promise<unknown>) => () => {
    work().catch(options.onError)
  }
  const emulatorMenu: MenuItemConstructorOptions = {
    label: MENU_LABELS.emulator,
    submenu: [
      {
        label: MENU_LABELS.copyApiBaseUrl,
        accelerator: 'CmdOrCtrl+Shift+C',
        click: run(() => actions.copyApiBaseUrl())
      },
      { label: MENU_LABELS.openDataFolder, click: run(() => actions.openDataFolder()) },
      { type: 'separator' },
      { label: MENU_LABELS.resetEmulator, click: run(() => actions.resetEmulator()) }
    ]
  }
  const viewMenu: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(options.isPackaged ? [] : [{ role: 'toggleDevTools' } as const]),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' }
    ]
  }
  return [
    ...(isMac ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    viewMenu,
    emulatorMenu,
    { role: 'windowMenu' }
  ]
}

/** What the menu commands use: the running server, the data folder and OS services (narrowed). */
export interface MenuActionDeps {
  baseUrl(): string
  dataDir: string
  /** Electron's clipboard.writeText: resolves once the text is on the clipboard. */
  writeClipboard(text: string): void | Promise<void>
  /** shell.openPath: resolves to an error message, '' on success. */
  openPath(path: string): Promise<string>
  /** Shows the confirmation; resolves to the index of the button pressed. */
  confirm(options: {
    type: 'warning'
    buttons: string[]
    defaultId: number
    cancelId: number
    message: string
    detail: string
  }): Promise<number>
  /** Empties the emulator (core's state.reset through the server). */
  reset(): void | Promise<void>
  /** After a reset: the window shows fresh data. */
  afterReset(): void
  showError(title: string, message: string): void
}

export function createMenuActions(deps: MenuActionDeps): MenuActions {
  return {
    async copyApiBaseUrl() {
      await deps.writeClipboard(deps.baseUrl())
    },
    async openDataFolder() {
      const problem = await deps.openPath(deps.dataDir)
      if (problem) deps.showError('Cannot open the data folder', `${deps.dataDir}: ${problem}`)
    },
    async resetEmulator() {
      const answer = await deps.confirm({
        type: 'warning',
        buttons: ['Cancel', 'Reset'],
        defaultId: 0,
        cancelId: 0,
        message: 'Reset the emulator?',
        detail:
          'This deletes all data (developers, products, credentials, customers, licenses), the fault rules and the clock offset. ' +
          'Signing keys and settings stay. It cannot be undone.'
      })
      if (answer !== 1) return false
      await deps.reset()
      deps.afterReset()
      return true
    }
  }
}
