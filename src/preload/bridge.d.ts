/** What the preload script exposes on `window.emulatorDesktop` (absent in a plain browser). */
export interface DesktopBridge {
  /** The embedded server's base URL and control-plane token. */
  connection(): Promise<{ baseUrl: string; adminToken: string }>
  appVersion(): Promise<string>
}

declare global {
  interface Window {
    emulatorDesktop?: DesktopBridge
  }
}
