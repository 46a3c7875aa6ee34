import { DEFAULT_SCREEN } from '../navigation/routes'
import { ADMIN_TOKEN_STORAGE_KEY, resolveAdminToken, tokenFromFragment } from '../platform/admin-token'
import type { KeyValueStorage } from '../platform/admin-token'
import { useConnection } from '../stores/connection'
import { startOver } from '../stores/start-over'

function sessionStore(): KeyValueStorage | null {
  try {
    return window.sessionStorage
  } catch {
    return null
  }
}

let booting: Promise<void> | null = null

/**
 * Connects the UI to its emulator. In the desktop app the preload bridge says where the
 * embedded server is; in a browser the server is this page's origin and the admin token comes
 * from the admin URL's fragment once, then from sessionStorage. The token is never logged.
 */
export function boot(): Promise<void> {
  booting ??= (async () => {
    const desktop = window.emulatorDesktop
    if (desktop) {
      try {
        const { baseUrl, adminToken } = await desktop.connection()
        await useConnection.getState().connect({ baseUrl, adminToken, desktop: true })
      } catch {
        useConnection.setState({ phase: 'failed' })
      }
      return
    }
    window.addEventListener('hashchange', followAdminFragment)
    const resolved = resolveAdminToken(window.location.hash, sessionStore())
    if (resolved.replaceHash !== null) hideFragmentToken(resolved.replaceHash)
    if (!resolved.token) {
      useConnection.getState().needToken(window.location.origin)
      return
    }
    const connected = await useConnection
      .getState()
      .connect({ baseUrl: window.location.origin, adminToken: resolved.token })
    if (!connected && useConnection.getState().phase === 'needs-token')
      sessionStore()?.removeItem(ADMIN_TOKEN_STORAGE_KEY)
  })()
  return booting
}

/** Takes the token out of the address bar (and so out of history, bookmarks and screen shares). */
function hideFragmentToken(cleanedHash: string): void {
  window.history.replaceState(
    null,
    '',
    `${window.location.pathname}${window.location.search}${cleanedHash || `#/${DEFAULT_SCREEN}`}`
  )
}

/**
 * An admin URL pasted into this open tab (after a restart with a new token) changes only the
 * fragment, so the page does not load again: the token is read on hashchange too, and the UI
 * connects with it and starts over (it may be another server's state).
 */
function followAdminFragment(): void {
  const { token, cleanedHash } = tokenFromFragment(window.location.hash)
  if (!token) return
  hideFragmentToken(cleanedHash)
  void connectWithToken(token).then((connected) => {
    if (connected) startOver()
  })
}

/** The token typed into the token form: kept for this tab, then used to connect. */
export async function connectWithToken(token: string): Promise<boolean> {
  const trimmed = token.trim()
  const connected = await useConnection.getState().connect({ baseUrl: window.location.origin, adminToken: trimmed })
  if (connected) {
    try {
      sessionStore()?.setItem(ADMIN_TOKEN_STORAGE_KEY, trimmed)
    } catch {
      // Storage disabled: connected for this page's life only.
    }
  }
  return connected
}

/** Retry after the server did not answer. */
export function retryBoot(): Promise<void> {
  booting = null
  return boot()
}
