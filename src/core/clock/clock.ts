/**
 * The emulator's notion of "now". Everything time-dependent (token lifetimes, expiry,
 * lastUsedAt, audit times) reads it, so QA can move time without touching the OS clock.
 */
export interface Clock {
  now(): Date
  nowIso(): string
  /** Milliseconds added to the system time. */
  offsetMs(): number
  setOffsetMs(offsetMs: number): void
  /** Moves "now" to an absolute instant (kept as an offset from the system time). */
  setNow(instant: Date): void
}

export function createClock(systemNow: () => number = Date.now): Clock {
  let offset = 0
  return {
    now: () => new Date(systemNow() + offset),
    nowIso: () => new Date(systemNow() + offset).toISOString(),
    offsetMs: () => offset,
    setOffsetMs(offsetMs) {
      offset = Math.trunc(offsetMs)
    },
    setNow(instant) {
      offset = instant.getTime() - systemNow()
    }
  }
}
