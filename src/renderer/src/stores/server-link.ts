import { create } from 'zustand'

/**
 * Is the emulator answering? One state for the whole UI, fed by the app's event stream and by
 * every call the UI makes (see app/server-watch.ts):
 * - `connected`: the last call or the event stream got an answer;
 * - `reconnecting`: a call or the stream just failed; the UI is checking again;
 * - `disconnected`: still no answer after a few tries; the UI keeps retrying by itself.
 */
export type LinkState = 'connected' | 'reconnecting' | 'disconnected'

/** Failed checks in a row before "reconnecting" becomes "disconnected". */
export const FAILURES_BEFORE_DISCONNECTED = 2

export interface ServerLinkState {
  state: LinkState
  /** When the server stopped answering (real time, ms since the epoch); null while connected. */
  since: number | null
  /** What the last failure said, for the banner. */
  lastError: string | null
  /** Failed checks since the link was lost. */
  failures: number
  /** How many times the link came back (screens reload then). */
  recoveries: number
  /** A call or the stream got no answer. */
  lost(reason: string, at?: number): void
  /** A check while lost failed again. */
  checkFailed(reason: string): void
  /** Something answered. */
  answered(): void
}

export const useServerLink = create<ServerLinkState>()((set, get) => ({
  state: 'connected',
  since: null,
  lastError: null,
  failures: 0,
  recoveries: 0,

  lost(reason, at = Date.now()) {
    if (get().state !== 'connected') {
      set({ lastError: reason })
      return
    }
    set({ state: 'reconnecting', since: at, lastError: reason, failures: 0 })
  },

  checkFailed(reason) {
    const failures = get().failures + 1
    set({
      failures,
      lastError: reason,
      state: failures >= FAILURES_BEFORE_DISCONNECTED ? 'disconnected' : 'reconnecting',
      since: get().since ?? Date.now()
    })
  },

  answered() {
    if (get().state === 'connected') return
    set({ state: 'connected', since: null, lastError: null, failures: 0, recoveries: get().recoveries + 1 })
  }
}))

/** Why a control that needs the server is disabled, or null while it answers. */
export function serverDownReason(state: LinkState): string | null {
  if (state === 'connected') return null
  return state === 'reconnecting'
    ? 'The emulator stopped answering; reconnecting…'
    : 'The emulator is not answering; this needs the server.'
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>

/** The control plane is never faulted: a dropped control call means the server is gone. */
function isControlPlane(url: string): boolean {
  try {
    return new URL(url, 'http://localhost').pathname.startsWith('/_emulator/')
  } catch {
    return false
  }
}

/**
 * `fetch` that tells the link what happened: any HTTP answer means the server is up (an error
 * status is the server talking); a rejected control-plane call that nobody aborted means it is
 * not. A rejected service API call may be an injected "offline" fault, so it does not count.
 */
export function observedFetch(base?: Fetch): Fetch {
  const doFetch: Fetch = base ?? ((input, init) => globalThis.fetch(input, init))
  return async (input, init) => {
    try {
      const response = await doFetch(input, init)
      useServerLink.getState().answered()
      return response
    } catch (error) {
      if (!init?.signal?.aborted && isControlPlane(input))
        useServerLink.getState().lost(error instanceof Error ? error.message : String(error))
      throw error
    }
  }
}
