import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'

/** A clock over a system time the test moves by hand. */
function manualClock(start = Date.parse('2025-03-01T12:00:00.000Z')) {
  let system = start
  const clock = createClock(() => system)
  return { clock, advanceSystem: (ms: number) => (system += ms) }
}

describe('clock', () => {
  it('reads the system time when not moved', () => {
    const { clock } = manualClock()
    expect(clock.offsetMs()).toBe(0)
    expect(clock.nowIso()).toBe('2025-03-01T12:00:00.000Z')
    expect(clock.now().getTime()).toBe(Date.parse('2025-03-01T12:00:00.000Z'))
  })

  it('moves by an offset, forwards and back', () => {
    const { clock } = manualClock()
    clock.setOffsetMs(90_000)
    expect(clock.offsetMs()).toBe(90_000)
    expect(clock.nowIso()).toBe('2025-03-01T12:01:30.000Z')
    clock.setOffsetMs(-86_400_000)
    expect(clock.nowIso()).toBe('2025-02-28T12:00:00.000Z')
    clock.setOffsetMs(0)
    expect(clock.nowIso()).toBe('2025-03-01T12:00:00.000Z')
  })

  it('keeps whole milliseconds of an offset', () => {
    const { clock } = manualClock()
    clock.setOffsetMs(1500.9)
    expect(clock.offsetMs()).toBe(1500)
    clock.setOffsetMs(-1500.9)
    expect(clock.offsetMs()).toBe(-1500)
  })

  it('moves to an absolute instant and keeps running from there', () => {
    const { clock, advanceSystem } = manualClock()
    clock.setNow(new Date('2030-01-01T00:00:00.000Z'))
    expect(clock.nowIso()).toBe('2030-01-01T00:00:00.000Z')
    expect(clock.offsetMs()).toBe(Date.parse('2030-01-01T00:00:00.000Z') - Date.parse('2025-03-01T12:00:00.000Z'))
    advanceSystem(5_000)
    expect(clock.nowIso()).toBe('2030-01-01T00:00:05.000Z')
  })

  it('moves to an instant in the past', () => {
    const { clock } = manualClock()
    clock.setNow(new Date('2020-06-15T08:30:00.000Z'))
    expect(clock.now().toISOString()).toBe('2020-06-15T08:30:00.000Z')
    expect(clock.offsetMs()).toBeLessThan(0)
  })

  it('follows the real system time by default', () => {
    const clock = createClock()
    clock.setOffsetMs(3_600_000)
    const before = Date.now()
    const now = clock.now().getTime()
    const after = Date.now()
    expect(now).toBeGreaterThanOrEqual(before + 3_600_000)
    expect(now).toBeLessThanOrEqual(after + 3_600_000)
  })
})
