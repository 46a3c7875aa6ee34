/** Dates for people: absolute in the reader's locale, relative ("3 minutes ago") against a given now. */

import { dateTimeFormat, numberFormat, relativeFormat } from './intl-formats'

export interface DateFormatOptions {
  locale?: string | undefined
  timeZone?: string | undefined
}

function absoluteFormat(options: DateFormatOptions, withSeconds: boolean): Intl.DateTimeFormat {
  return dateTimeFormat(options.locale, {
    dateStyle: 'medium',
    timeStyle: withSeconds ? 'medium' : 'short',
    ...(options.timeZone ? { timeZone: options.timeZone } : {})
  })
}

/**
 * Formats with the space beside AM/PM made a no-break space, so "1:24 PM" never wraps between its
 * halves in a narrow cell. ICU puts U+202F there, but Chromium gives a plain space back (web
 * compatibility), so a wrapped line could start with "PM".
 */
function formatKeepingTimeTogether(format: Intl.DateTimeFormat, date: Date): string {
  const parts = format.formatToParts(date)
  return parts
    .map((part, index) =>
      part.type === 'literal' &&
      /^\s+$/u.test(part.value) &&
      (parts[index - 1]?.type === 'dayPeriod' || parts[index + 1]?.type === 'dayPeriod')
        ? '\u00a0'
        : part.value
    )
    .join('')
}

/** Parses an ISO instant; null for null, undefined or garbage. */
export function parseInstant(value: string | null | undefined): Date | null {
  if (!value) return null
  const time = Date.parse(value)
  return Number.isNaN(time) ? null : new Date(time)
}

/** "Nov 21, 2026, 10:01 AM"; an em dash for no date. */
export function formatDateTime(
  value: string | null | undefined,
  options: DateFormatOptions & { seconds?: boolean } = {}
): string {
  const date = parseInstant(value)
  return date ? formatKeepingTimeTogether(absoluteFormat(options, options.seconds ?? false), date) : '—'
}

/** "10:01:08" for a log line: time of day with seconds. */
export function formatTimeOfDay(value: string | null | undefined, options: DateFormatOptions = {}): string {
  const date = parseInstant(value)
  if (!date) return '—'
  return dateTimeFormat(options.locale, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    ...(options.timeZone ? { timeZone: options.timeZone } : {})
  }).format(date)
}

/** Which clock a time belongs to, and so which "now" its relative hint is computed against. */
export type ClockName = 'system' | 'emulator'

/**
 * - `system`: when something happened in the real world (requests arriving), against the
 *   computer's clock, whatever the emulator clock says;
 * - `emulator`: license, subscription, credential and account times, against the emulator's now
 *   (system time plus the offset QA set).
 */
export const CLOCK_NAMES: Record<ClockName, string> = { system: 'system clock', emulator: 'emulator clock' }

/**
 * `event`: something that happened (created, last used): never "in 3 days"; after the clock
 * was moved back it says the time is ahead of the clock. `deadline`: something due (expires,
 * renews): either side of now.
 */
export type MomentKind = 'event' | 'deadline'

const MINUTE = 60 * 1000
/** How far ahead of the shown now an event may be and still read "now" (twice the ticker's 30 s). */
export const EVENT_AHEAD_TOLERANCE_MS = MINUTE
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Whole units, chosen so no hint rounds a span into a misleading word ("next week" for 13 days). */
function span(diff: number): [number, Intl.RelativeTimeFormatUnit] {
  const magnitude = Math.abs(diff)
  if (magnitude < MINUTE) return [Math.round(diff / 1000), 'second']
  if (magnitude < HOUR) return [Math.round(diff / MINUTE), 'minute']
  if (magnitude < 48 * HOUR) return [Math.round(diff / HOUR), 'hour']
  if (magnitude < 60 * DAY) return [Math.round(diff / DAY), 'day']
  if (magnitude < 730 * DAY) return [Math.round(diff / (30 * DAY)), 'month']
  return [Math.round(diff / (365 * DAY)), 'year']
}

/**
 * "3 minutes ago", "in 14 days", "now", against the `nowMs` of the right clock (see
 * ClockName). An event after that now says "2 days ahead of the clock" rather than "in 2 days".
 */
export function formatRelative(
  value: string | null | undefined,
  nowMs: number,
  options: DateFormatOptions & { kind?: MomentKind } = {}
): string {
  const date = parseInstant(value)
  if (!date) return '—'
  const diff = date.getTime() - nowMs
  if (Math.abs(diff) < 10_000) return 'now'
  // The screens' now is refreshed every 30 s (and on each change): an event that just happened can
  // be that far ahead of it without the clock having moved back.
  if (diff > 0 && diff < EVENT_AHEAD_TOLERANCE_MS && (options.kind ?? 'deadline') === 'event') return 'now'
  const [count, unit] = span(diff)
  const format = relativeFormat(options.locale)
  if (diff > 0 && (options.kind ?? 'deadline') === 'event') {
    const amount = numberFormat(options.locale, { style: 'unit', unit, unitDisplay: 'long' }).format(Math.abs(count))
    return `${amount} ahead of the clock (moved back)`
  }
  return format.format(count, unit)
}

/** "Nov 21, 10:01 AM" (the year only when it is not the now's year). */
export function formatShortDateTime(
  value: string | null | undefined,
  nowMs: number,
  options: DateFormatOptions = {}
): string {
  const date = parseInstant(value)
  if (!date) return '—'
  const zone = options.timeZone ? { timeZone: options.timeZone } : {}
  const year = (ms: number) => dateTimeFormat('en-US', { year: 'numeric', ...zone }).format(ms)
  const sameYear = year(date.getTime()) === year(nowMs)
  const format = dateTimeFormat(options.locale, {
    ...(sameYear ? {} : { year: 'numeric' }),
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...zone
  })
  return formatKeepingTimeTogether(format, date)
}

export interface MomentText {
  /** The date and time, absolute. */
  absolute: string
  /** "3 days ago", against the named clock. */
  relative: string
  /** "emulator clock" or "system clock". */
  clock: string
  /** Everything, for a tooltip: exact time, relative, which clock and its now. */
  title: string
}

/**
 * A clock's now as every tooltip on screen writes it. A render shows many times against one or two
 * nows (the system's and the emulator's), so each is formatted once, not once per time shown.
 */
const nowTexts = new Map<string, string>()
function formatNow(nowMs: number, options: DateFormatOptions): string {
  const key = `${nowMs}|${options.locale ?? ''}|${options.timeZone ?? ''}`
  let text = nowTexts.get(key)
  if (text === undefined) {
    if (nowTexts.size >= 8) nowTexts.clear()
    text = formatDateTime(new Date(nowMs).toISOString(), options)
    nowTexts.set(key, text)
  }
  return text
}

/** A time for people: absolute first, a relative hint against the right clock, and which clock. */
export function describeMoment(
  value: string | null | undefined,
  options: DateFormatOptions & {
    nowMs: number
    clock: ClockName
    kind?: MomentKind
    short?: boolean
    seconds?: boolean
  }
): MomentText | null {
  if (!parseInstant(value)) return null
  const absolute = options.short
    ? formatShortDateTime(value, options.nowMs, options)
    : formatDateTime(value, { ...options, seconds: options.seconds ?? false })
  const relative = formatRelative(value, options.nowMs, options)
  const clock = CLOCK_NAMES[options.clock]
  const nowText = formatNow(options.nowMs, options)
  return {
    absolute,
    relative,
    clock,
    title: `${formatDateTime(value, { ...options, seconds: true })}: ${relative} on the ${clock} (its now: ${nowText})`
  }
}

/** A request's duration: "0.4 ms", "12 ms", "1.25 s". */
export function formatDuration(ms: number, options: { locale?: string } = {}): string {
  if (!Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 1) return `${numberFormat(options.locale, { maximumFractionDigits: 1 }).format(ms)} ms`
  if (ms < 1000) return `${numberFormat(options.locale, { maximumFractionDigits: 0 }).format(ms)} ms`
  return `${numberFormat(options.locale, { maximumFractionDigits: 2 }).format(ms / 1000)} s`
}

/** A clock offset for people: "system time", "+3 days 4 hours", "−1 hour". */
export function formatOffset(offsetS: number): string {
  if (Math.abs(offsetS) < 1) return 'system time'
  const sign = offsetS < 0 ? '−' : '+'
  let rest = Math.round(Math.abs(offsetS))
  const parts: string[] = []
  const units: [string, number][] = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
    ['second', 1]
  ]
  for (const [name, size] of units) {
    const count = Math.floor(rest / size)
    if (count > 0) {
      parts.push(`${count} ${name}${count === 1 ? '' : 's'}`)
      rest -= count * size
    }
    if (parts.length === 2) break
  }
  return `${sign}${parts.join(' ')}`
}

/** A clock offset in a few characters, for the status bar and the window title: "+30 d", "+2 d 4 h", "−1 h", "+5 min". */
export function formatOffsetShort(offsetS: number): string {
  if (Math.abs(offsetS) < 60) return 'system time'
  const sign = offsetS < 0 ? '−' : '+'
  let rest = Math.round(Math.abs(offsetS) / 60)
  const parts: string[] = []
  for (const [name, size] of [
    ['d', 1440],
    ['h', 60],
    ['min', 1]
  ] as const) {
    const count = Math.floor(rest / size)
    if (count > 0) {
      parts.push(`${count} ${name}`)
      rest -= count * size
    }
    if (parts.length === 2) break
  }
  return `${sign}${parts.join(' ')}`
}

/** The value of an <input type="datetime-local"> for an instant, in local time. */
export function toDateTimeLocalValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}
