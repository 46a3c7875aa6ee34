import { useSyncExternalStore } from 'react'

import { useConnection } from '../stores/connection'

/** One shared ticker: relative times re-render twice a minute, all at once, reading the same now. */
let now = Date.now()
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | null = null

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (!timer) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
      for (const notify of listeners) notify()
    }, 30_000)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer) {
      clearInterval(timer)
      timer = null
    }
  }
}

/**
 * Takes a fresh now at once: called when new data arrives (a change event), so a time that
 * just happened never reads as ahead of a now taken up to 30 s earlier.
 */
export function refreshNow(): void {
  if (listeners.size === 0) return
  now = Date.now()
  for (const notify of listeners) notify()
}

/** The server's system now (real time: request times, connection times), refreshed every 30 s and on changes. */
export function useRealNow(): number {
  const browserNow = useSyncExternalStore(subscribe, () => now)
  return browserNow + useConnection((state) => state.skewMs)
}

/** The emulator's now (the server's system time plus the clock offset), refreshed every 30 s and on changes. */
export function useEmulatorNow(): number {
  // Rendering stays pure: the time comes from the ticker's snapshot, not from Date.now() here.
  const browserNow = useSyncExternalStore(subscribe, () => now)
  const shift = useConnection((state) => state.skewMs + state.clockOffsetMs)
  return browserNow + shift
}
