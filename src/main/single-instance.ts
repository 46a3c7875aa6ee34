/** What single-instance handling needs from Electron's app. */
export interface SingleInstanceApp {
  requestSingleInstanceLock(): boolean
  on(event: 'second-instance', listener: () => void): unknown
}

/** The window operations that bring the app to the front. */
export interface FocusableWindow {
  isDestroyed(): boolean
  isMinimized(): boolean
  restore(): void
  show(): void
  focus(): void
}

/**
 * One app per user-data directory: a second one would fight over the SQLite file and the port.
 * Returns false in the second process, which must quit; the first one is then brought forward.
 * (Electron keys the lock on the user-data directory, so a test profile runs beside the real one.)
 */
export function claimSingleInstance(app: SingleInstanceApp, onSecondInstance: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false
  app.on('second-instance', onSecondInstance)
  return true
}

export function bringToFront(window: FocusableWindow | null): void {
  if (!window || window.isDestroyed()) return
  if (window.isMinimized()) window.restore()
  window.show()
  window.focus()
}
