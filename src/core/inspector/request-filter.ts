import { REQUEST_SOURCES } from '../../shared/contract/inspector'
import type { RequestSource } from '../../shared/contract/inspector'
import type { RequestFilter, RequestSummary } from './types'

/** `404` (exact) or `4xx` (class); null for anything else. */
export function parseStatusFilter(value: string): { min: number; max: number } | null {
  const exact = /^(\d{1,3})$/.exec(value)
  if (exact) {
    const status = Number(exact[1])
    return { min: status, max: status }
  }
  const range = /^([1-5])xx$/i.exec(value)
  if (range) {
    const hundreds = Number(range[1]) * 100
    return { min: hundreds, max: hundreds + 99 }
  }
  return null
}

/**
 * Whether a request matches the inspector's filter (the live stream); request-log-repository.ts says
 * the same in SQL. `exchangeText` is the entry's stored request and response (JSON text), which the text search
 * `q` reads; without it a `q` filter matches nothing but the path.
 */
export function matchesFilter(entry: RequestSummary, filter: RequestFilter, exchangeText = ''): boolean {
  if (filter.surface && entry.surface !== filter.surface) return false
  if (filter.status) {
    const range = parseStatusFilter(filter.status)
    if (!range || entry.status < range.min || entry.status > range.max) return false
  }
  if (filter.method && entry.method !== filter.method.toUpperCase()) return false
  if (filter.productId && entry.productId !== filter.productId) return false
  if (filter.authKind && entry.authKind !== filter.authKind) return false
  if (filter.path && !entry.path.toLowerCase().includes(filter.path.toLowerCase())) return false
  if (filter.source && filter.source.length > 0 && !filter.source.includes(entry.source)) return false
  if (filter.answeredBy && entry.answeredBy !== filter.answeredBy) return false
  if (filter.q) {
    const wanted = filter.q.toLowerCase()
    if (!entry.path.toLowerCase().includes(wanted) && !exchangeText.toLowerCase().includes(wanted)) return false
  }
  return true
}

/** The `source` query parameter (`client,tester`) as a list; unknown names are left out. */
export function sourceList(value: string | undefined): RequestSource[] | undefined {
  if (value === undefined) return undefined
  return value.split(',').filter((name): name is RequestSource => (REQUEST_SOURCES as readonly string[]).includes(name))
}
