import { isApiError } from '../api/errors'
import { useConnection } from '../stores/connection'
import { useServerLink } from '../stores/server-link'
import { toast } from '../stores/toasts'
import { followChanges, parseChangeBatch } from './follow-changes'

/** While the server does not answer, check again this often. */
export const CHECK_EVERY_MS = 2000

/**
 * Keeps the one connection state true and the screens current: the app-wide change feed
 * (GET /_emulator/events, which the server ends when it stops) brings every change to the state
 * (see follow-changes.ts) and says at once when the server goes away, every call the UI makes
 * reports too (observedFetch), and while it is away a liveness check runs every few seconds.
 * When it answers again the screens reload what they show. Answers a function that stops it.
 */
export function watchServer(): () => void {
  let source: EventSource | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  let stopped = false

  function openStream(): void {
    const api = useConnection.getState().api
    if (!api || stopped) return
    source?.close()
    const opened = new EventSource(api.control.eventsUrl())
    opened.onopen = () => useServerLink.getState().answered()
    opened.addEventListener('change', (event) => {
      const batch = parseChangeBatch((event as MessageEvent<string>).data)
      if (batch) followChanges(batch)
    })
    opened.onerror = () => {
      useServerLink.getState().lost('The event stream from the emulator closed.')
      // EventSource retries a dropped connection by itself; after a refused answer it gives up,
      // and the stream is opened again once the server answers a check.
      if (opened.readyState === EventSource.CLOSED && source === opened) source = null
    }
    source = opened
  }

  async function check(): Promise<void> {
    timer = null
    const api = useConnection.getState().api
    if (stopped || !api || useServerLink.getState().state === 'connected') return
    try {
      await api.control.health()
      // observedFetch has marked the link as connected.
    } catch (error) {
      if (isApiError(error) && error.status === 0) useServerLink.getState().checkFailed(error.message)
      else useServerLink.getState().answered()
    }
    schedule()
  }

  function schedule(): void {
    if (stopped || timer || useServerLink.getState().state === 'connected') return
    timer = setTimeout(() => void check(), CHECK_EVERY_MS)
  }

  async function recover(): Promise<void> {
    if (!source) openStream()
    const connection = useConnection.getState()
    const api = connection.api
    if (!api) return
    try {
      await connection.syncClock()
    } catch (error) {
      // Restarted with another admin token: ask for it rather than fail every call.
      if (isApiError(error) && (error.code === 'INVALID_TOKEN' || error.code === 'AUTH_REQUIRED')) {
        connection.needToken(api.baseUrl, error)
        return
      }
    }
    // Changes made while away were not heard: everything is read again.
    connection.stateReplaced()
    toast.success('Reconnected to the emulator', 'The screens show its current data again.')
  }

  const unsubscribe = useServerLink.subscribe((next, previous) => {
    if (next.recoveries !== previous.recoveries) void recover()
    else if (next.state !== 'connected') schedule()
  })

  openStream()
  return () => {
    stopped = true
    unsubscribe()
    if (timer) clearTimeout(timer)
    source?.close()
    source = null
  }
}

/** Check now instead of at the next tick (the banner's "Try now"). */
export async function checkServerNow(): Promise<boolean> {
  const api = useConnection.getState().api
  if (!api) return false
  try {
    await api.control.health()
    return true
  } catch (error) {
    if (isApiError(error) && error.status === 0) {
      useServerLink.getState().checkFailed(error.message)
      return false
    }
    return true
  }
}
