/** Dates for people: absolute in the reader's locale, relative ("3 minutes ago") against a given now. */

export interface DateFormatOptions {
  locale?: string | undefined
  timeZone?: string | undefined
}

const absoluteFormats = new Map<string, Intl.DateTimeFormat>()

function absoluteFormat(options: DateFormatOptions, withSeconds: boolean): Intl.DateTimeFormat {
  const key = `${options.locale ?? ''}|${options.timeZone ?? ''}|${withSeconds}`
  let format = absoluteFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(options.locale, {
      dateStyle: 'medium',
      timeStyle: withSeconds ? 'medium' : 'short',
      ...(options.timeZone ? { timeZone: options.timeZone } : {})
    })
    absoluteFormats.set(key, format)
  }
  return format
}

/** Parses an ISO instant; null for null, undefined or garbage. */
export function parseInstant(value: string | null | undefined): Date | null {
  if (!value) return null
  const time = Date.parse(value)
  return Number.isNaN(time) ? null : new Date(time)
}

/** "Nov 21, 2026, 10:01 AM"; an em dash for no date. */
export function formatDateTime(value: string | null | undefined, options: DateFormatOptions & { seconds?: boolean } = {}): string {
  const date = parseInstant(value)
  return date ? absoluteFormat(options, options.seconds ?? false).format(date) : '—'
}

/** "10:01:08" for a log line: time of day with seconds. */
export function formatTimeOfDay(value: string | null | undefined, options: DateFormatOptions = {}): string {
  const date = parseInstant(value)
  if (!date) return '—'
  return new Intl.DateTimeFormat(options.locale, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    ...(options.timeZone ? { timeZone: options.timeZone } : {})
  }).format(date)
}

const UNITS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 60 * 60 * 1000],
  ['month', 30 * 24 * 60 * 60 * 1000],
  ['week', 7 * 24 * 60 * 60 * 1000],
  ['day', 24 * 60 * 60 * 1000],
  ['hour', 60 * 60 * 1000],
  ['minute', 60 * 1000],
  ['second', 1000]
]

/**
 * "3 minutes ago", "in 2 days", "now". `nowMs` is the emulator's now (system time plus the
 * emulator clock offset), so times stay right after the clock has been moved.
 */
export function formatRelative(value: string | null | undefined, nowMs: number, options: DateFormatOptions = {}): string {
  const date = parseInstant(value)
  if (!date) return '—'
  const diff = date.getTime() - nowMs
  const magnitude = Math.abs(diff)
  const format = new Intl.RelativeTimeFormat(options.locale, { numeric: 'auto' })
  if (magnitude < 10_000) return format.format(0, 'second')
  for (const [unit, size] of UNITS) {
    if (magnitude >= size || unit === 'second') {
      return format.format(Math.trunc(diff / size), unit)
    }
  }
  return format.format(0, 'second')
}

/** A request's duration: "0.4 ms", "12 ms", "1.25 s". */
export function formatDuration(ms: number, options: { locale?: string } = {}): string {
  if (!Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 1) return `${new Intl.NumberFormat(options.locale, { maximumFractionDigits: 1 }).format(ms)} ms`
  if (ms < 1000) return `${new Intl.NumberFormat(options.locale, { maximumFractionDigits: 0 }).format(ms)} ms`
  return `${new Intl.NumberFormat(options.locale, { maximumFractionDigits: 2 }).format(ms / 1000)} s`
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
