import type { Clock } from '../clock/clock'

/** The same clock, announcing each move (QA moving time changes what every screen shows). */
export function announcingClock(clock: Clock, onMove: () => void): Clock {
  return {
    now: () => clock.now(),
    nowIso: () => clock.nowIso(),
    offsetMs: () => clock.offsetMs(),
    setOffsetMs(offsetMs) {
      clock.setOffsetMs(offsetMs)
      onMove()
    },
    setNow(instant) {
      clock.setNow(instant)
      onMove()
    }
  }
}
