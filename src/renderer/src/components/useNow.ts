import { useSyncExternalStore } from 'react'
import { useConnection } from '../stores/connection'

/** One shared ticker: relative times re-render twice a minute, all at once. */
let tick = Math.floor(Date.now() / 30_000)
const listeners = new Set<() => void>()
let timer: ReturnType<typeof setInterval> | null = null

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (!timer) {
    timer = setInterval(() => {
      tick = Math.floor(Date.now() / 30_000)
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
  useSyncExternalStore(subscribe, () => tick)
  return Date.now()
}

/** The emulator's now (system time plus the clock offset), refreshed every 30 s. */
export function useEmulatorNow(): number {
  useSyncExternalStore(subscribe, () => tick)
  const offset = useConnection((state) => state.clockOffsetMs)
  return Date.now() + offset
}
