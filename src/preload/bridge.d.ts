/**
 * What the preload script exposes on `window.emulatorDesktop`: one typed function per capability.
 * Absent in a plain browser (the UI served by `serve`), so every use is optional.
 */
export interface DesktopBridge {
  /** The embedded server's base URL and control-plane token. */
  connection(): Promise<{ baseUrl: string; adminToken: string }>
  /** Version, where the data lives and how the runtime key is protected. */
  appInfo(): Promise<{ version: string; dataDir: string; runtimeKeyProtection: 'safeStorage' | 'file' }>
  /** Opens the data folder in the OS file manager. */
  openDataFolder(): Promise<void>
  /** Opens an http(s) URL in the OS browser (after a check in main). */
  openExternal(url: string): Promise<void>
  /** Saves text through the OS save dialog; false when the user cancelled. */
  saveTextFile(suggestedName: string, text: string): Promise<boolean>
}

declare global {
  interface Window {
    emulatorDesktop?: DesktopBridge
  }
}
