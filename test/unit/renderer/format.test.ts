import { describe, expect, it } from 'vitest'

import { formatBytes } from '../../../src/renderer/src/format/bytes'
import {
  describeMoment,
  formatDateTime,
  formatDuration,
  formatOffset,
  formatOffsetShort,
  formatRelative,
  formatShortDateTime,
  formatTimeOfDay,
  parseInstant,
  toDateTimeLocalValue
} from '../../../src/renderer/src/format/date'
import { humanLabel } from '../../../src/renderer/src/format/labels'
import { formatCount, formatMoney, formatPercent, pluralize } from '../../../src/renderer/src/format/number'

const en = { locale: 'en-US', timeZone: 'UTC' }
const NOW = Date.parse('2026-11-21T10:00:00.000Z')

describe('dates for people', () => {
  it('formats an instant in the given locale and zone, and a dash for none', () => {
    expect(formatDateTime('2026-11-21T10:01:08.000Z', en)).toBe('Nov 21, 2026, 10:01\u00a0AM')
    expect(formatDateTime('2026-11-21T10:01:08.000Z', { ...en, seconds: true })).toBe('Nov 21, 2026, 10:01:08\u00a0AM')
    expect(formatDateTime('2026-11-21T10:01:08.000Z', { locale: 'de-DE', timeZone: 'Europe/Berlin' })).toBe(
      '21.11.2026, 11:01'
    )
    // A no-break space before AM/PM, whatever space the engine gives: the time never wraps in two.
    expect(formatDateTime('2026-11-21T13:24:00.000Z', en)).toMatch(/1:24\u00a0PM$/)
    expect(formatShortDateTime('2026-11-21T13:24:00.000Z', Date.parse('2026-11-21T14:00:00.000Z'), en)).toBe(
      'Nov 21, 1:24\u00a0PM'
    )
    expect(formatDateTime(null)).toBe('—')
    expect(formatDateTime('not a date')).toBe('—')
    expect(parseInstant('garbage')).toBeNull()
  })

  it('formats the time of day of a log line in 24 hours', () => {
    expect(formatTimeOfDay('2026-11-21T15:04:05.000Z', en)).toBe('15:04:05')
  })

  it('says how long ago or how far ahead, in units that do not round into a misleading word', () => {
    expect(formatRelative('2026-11-21T09:57:00.000Z', NOW, en)).toBe('3 minutes ago')
    expect(formatRelative('2026-11-21T09:59:55.000Z', NOW, en)).toBe('now')
    expect(formatRelative('2026-11-23T10:00:00.000Z', NOW, en)).toBe('in 2 days')
    expect(formatRelative('2026-11-20T10:00:00.000Z', NOW, en)).toBe('24 hours ago')
    expect(formatRelative('2026-10-21T10:00:00.000Z', NOW, en)).toBe('31 days ago')
    expect(formatRelative('2027-12-21T10:00:00.000Z', NOW, en)).toBe('in 13 months')
    expect(formatRelative('2029-11-21T10:00:00.000Z', NOW, en)).toBe('in 3 years')
    expect(formatRelative(undefined, NOW)).toBe('—')
    // A 14-day trial started a few seconds ago: not "next week".
    expect(formatRelative('2026-12-05T09:59:30.000Z', NOW, en)).toBe('in 14 days')
  })

  it('follows a moved clock: the same instant reads differently at another now', () => {
    const lastUsed = '2026-11-21T10:00:00.000Z'
    expect(formatRelative(lastUsed, NOW + 30 * 86_400_000, en)).toBe('30 days ago')
  })

  it('never says an event is "in 4 weeks": after the clock went back it is ahead of the clock', () => {
    const lastUsed = '2026-11-21T10:00:00.000Z'
    const clockWentBack = NOW - 28 * 86_400_000
    expect(formatRelative(lastUsed, clockWentBack, { ...en, kind: 'event' })).toBe(
      '28 days ahead of the clock (moved back)'
    )
    expect(formatRelative(lastUsed, clockWentBack, { ...en, kind: 'deadline' })).toBe('in 28 days')
    expect(formatRelative(lastUsed, NOW + 60_000, { ...en, kind: 'event' })).toBe('1 minute ago')
  })

  it('an event that just happened, a little ahead of a now taken up to 30 s earlier, reads "now", not "moved back"', () => {
    const revokedAt = '2026-11-21T10:00:12.000Z'
    expect(formatRelative(revokedAt, Date.parse('2026-11-21T10:00:00.000Z'), { ...en, kind: 'event' })).toBe('now')
    expect(formatRelative(revokedAt, Date.parse('2026-11-21T09:58:00.000Z'), { ...en, kind: 'event' })).toBe(
      '2 minutes ahead of the clock (moved back)'
    )
  })

  it('computes the hint against the named clock and says which one', () => {
    // A request 5 minutes ago (system clock) while the emulator clock is 30 days ahead.
    const systemNow = NOW
    const emulatorNow = NOW + 30 * 86_400_000
    const request = describeMoment('2026-11-21T09:55:00.000Z', {
      ...en,
      nowMs: systemNow,
      clock: 'system',
      short: true
    })
    expect(request).toMatchObject({
      absolute: 'Nov 21, 9:55\u00a0AM',
      relative: '5 minutes ago',
      clock: 'system clock'
    })
    expect(request?.title).toBe(
      'Nov 21, 2026, 9:55:00\u00a0AM: 5 minutes ago on the system clock (its now: Nov 21, 2026, 10:00\u00a0AM)'
    )
    // A trial that ends 14 days after it started, seen on the emulator clock.
    const trialEnd = describeMoment('2026-12-05T10:00:00.000Z', {
      ...en,
      nowMs: emulatorNow,
      clock: 'emulator',
      kind: 'deadline'
    })
    expect(trialEnd).toMatchObject({
      absolute: 'Dec 5, 2026, 10:00\u00a0AM',
      relative: '16 days ago',
      clock: 'emulator clock'
    })
    expect(describeMoment(null, { nowMs: NOW, clock: 'system' })).toBeNull()
  })

  it("writes each time's own now in its title when times against both clocks and zones interleave", () => {
    const emulatorNow = NOW + 30 * 86_400_000
    const titles = [NOW, emulatorNow, NOW, emulatorNow].map(
      (nowMs) => describeMoment('2026-11-21T09:55:00.000Z', { ...en, nowMs, clock: 'system' })?.title
    )
    expect(titles[0]).toContain('(its now: Nov 21, 2026, 10:00\u00a0AM)')
    expect(titles[1]).toContain('(its now: Dec 21, 2026, 10:00\u00a0AM)')
    expect(titles[2]).toBe(titles[0])
    expect(titles[3]).toBe(titles[1])
    const tokyo = describeMoment('2026-11-21T09:55:00.000Z', {
      ...en,
      timeZone: 'Asia/Tokyo',
      nowMs: NOW,
      clock: 'system'
    })
    expect(tokyo?.title).toContain('(its now: Nov 21, 2026, 7:00\u00a0PM)')
  })

  it("shortens a date of the now's year", () => {
    expect(formatShortDateTime('2026-03-01T08:05:00.000Z', NOW, en)).toBe('Mar 1, 8:05\u00a0AM')
    expect(formatShortDateTime('2025-03-01T08:05:00.000Z', NOW, en)).toBe('Mar 1, 2025, 8:05\u00a0AM')
  })

  it('writes a clock offset in a few characters for the status bar', () => {
    expect(formatOffsetShort(0)).toBe('system time')
    expect(formatOffsetShort(30 * 86_400)).toBe('+30 d')
    expect(formatOffsetShort(2 * 86_400 + 4 * 3600 + 60)).toBe('+2 d 4 h')
    expect(formatOffsetShort(-3600)).toBe('−1 h')
    expect(formatOffsetShort(300)).toBe('+5 min')
  })

  it('formats durations and clock offsets', () => {
    expect(formatDuration(0.42, { locale: 'en-US' })).toBe('0.4 ms')
    expect(formatDuration(12.4, { locale: 'en-US' })).toBe('12 ms')
    expect(formatDuration(1250, { locale: 'en-US' })).toBe('1.25 s')
    expect(formatDuration(-1)).toBe('—')
    expect(formatOffset(0)).toBe('system time')
    expect(formatOffset(86_400)).toBe('+1 day')
    expect(formatOffset(30 * 86_400)).toBe('+30 days')
    expect(formatOffset(-3600)).toBe('−1 hour')
    expect(formatOffset(90_061)).toBe('+1 day 1 hour')
  })

  it('renders a datetime-local value in local time', () => {
    const date = new Date(2026, 0, 5, 7, 9)
    expect(toDateTimeLocalValue(date)).toBe('2026-01-05T07:09')
  })
})

describe('numbers and sizes for people', () => {
  it('groups counts and pluralises', () => {
    expect(formatCount(1234567, { locale: 'en-US' })).toBe('1,234,567')
    expect(pluralize(1, 'license', undefined, { locale: 'en-US' })).toBe('1 license')
    expect(pluralize(3, 'activation', undefined, { locale: 'en-US' })).toBe('3 activations')
  })

  it('formats money from cents, even for an odd currency code', () => {
    expect(formatMoney(9900, 'USD', { locale: 'en-US' })).toBe('$99.00')
    expect(formatMoney(999, 'EUR', { locale: 'de-DE' })).toBe('9,99\u00a0€')
    expect(formatMoney(100, 'NOT-A-CODE', { locale: 'en-US' })).toBe('1.00 NOT-A-CODE')
    expect(formatPercent(0.25, { locale: 'en-US' })).toBe('25%')
  })

  it('formats sizes in decimal units', () => {
    expect(formatBytes(0, { locale: 'en-US' })).toBe('0 bytes')
    expect(formatBytes(999, { locale: 'en-US' })).toBe('999 bytes')
    expect(formatBytes(48_000_000, { locale: 'en-US' })).toBe('48 MB')
    expect(formatBytes(1_500_000_000, { locale: 'en-US' })).toBe('1.5 GB')
    expect(formatBytes(123_456_789_012, { locale: 'en-US' })).toBe('123 GB')
    expect(formatBytes(null)).toBe('—')
    expect(formatBytes(-5)).toBe('—')
  })
})

describe('humanLabel', () => {
  it('reads enum values as words', () => {
    expect(humanLabel('reseller_claim')).toBe('reseller claim')
    expect(humanLabel('past_due')).toBe('past due')
    expect(humanLabel('SOME_NEW_VALUE')).toBe('some new value')
    expect(humanLabel(null)).toBe('')
  })
})
