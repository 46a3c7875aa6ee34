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

/** The system's now (real time: request times, connection times), refreshed every 30 s. */
export function useRealNow(): number {
  return useSyncExternalStore(subscribe, () => now)
}

/** The emulator's now (system time plus the clock offset), refreshed every 30 s. */
export function useEmulatorNow(): number {
  // Rendering stays pure: the time comes from the ticker's snapshot, not from Date.now() here.
  const systemNow = useSyncExternalStore(subscribe, () => now)
  const offset = useConnection((state) => state.clockOffsetMs)
  return systemNow + offset
}
