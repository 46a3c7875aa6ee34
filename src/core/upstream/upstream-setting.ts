import { DomainError } from '../errors/domain-error'
import { compileRoutePattern, normalizePath, routePatternProblem } from '../faults/route-pattern'
import type { PathMatcher } from '../faults/route-pattern'

/** What is forwarded when no routes are given: the service API (docs/upstream.md). */
export const DEFAULT_UPSTREAM_ROUTES: readonly string[] = ['/api/**', '/.well-known/**']

/** Bounds of the setting. */
export const UPSTREAM_LIMITS = { maxRoutes: 50, maxUrlLength: 2000 } as const

/** The upstream setting as stored and answered: `url` null is off. */
export interface UpstreamSettingValue {
  readonly url: string | null
  readonly routes: readonly string[]
}

/** The setting as a client writes it. */
export interface UpstreamSettingInput {
  url: string | null
  routes?: readonly string[] | null | undefined
}

/**
 * The upstream setting (docs/upstream.md): a setting of the machine, not of the scenario (an
 * export never carries it, a reset keeps it). Held in memory; `serve --upstream` sets it at start.
 */
export interface UpstreamSettings {
  get(): UpstreamSettingValue
  /** Replaces the setting; VALIDATION_ERROR names the field that is wrong. */
  set(input: UpstreamSettingInput): UpstreamSettingValue
  /** Whether a request to `path` is forwarded now (never for the control plane, /openapi.json or the UI). */
  forwards(path: string): boolean
}

export function createUpstreamSettings(
  initial: UpstreamSettingInput = { url: null },
  onChange?: () => void
): UpstreamSettings {
  let value: UpstreamSettingValue = { url: null, routes: DEFAULT_UPSTREAM_ROUTES }
  let matchers: PathMatcher[] = []

  const apply = (input: UpstreamSettingInput) => {
    const url = input.url === null ? null : upstreamUrlOf(input.url)
    const routes = input.routes == null || input.routes.length === 0 ? DEFAULT_UPSTREAM_ROUTES : input.routes
    if (routes.length > UPSTREAM_LIMITS.maxRoutes) invalid('/routes', `must have at most ${UPSTREAM_LIMITS.maxRoutes}`)
    routes.forEach((route, index) => {
      const problem = typeof route === 'string' ? routePatternProblem(route) : 'must be a string'
      if (problem) invalid(`/routes/${index}`, problem)
    })
    matchers = routes.map(compileRoutePattern)
    value = { url, routes: [...routes] }
  }
  apply(initial)

  return {
    get: () => ({ url: value.url, routes: [...value.routes] }),
    set(input) {
      apply(input)
      onChange?.()
      return { url: value.url, routes: [...value.routes] }
    },
    forwards(path) {
      if (value.url === null) return false
      const normalized = normalizePath(path)
      if (isNeverForwarded(normalized)) return false
      return matchers.some((matches) => matches(normalized))
    }
  }
}

/** The emulator's own surfaces: the control plane, the OpenAPI document and the UI stay local whatever the routes say. */
function isNeverForwarded(path: string): boolean {
  if (path === '/_emulator' || path.startsWith('/_emulator/')) return true
  if (path === '/openapi.json') return true
  return path === '/' || path === '/index.html' || path === '/favicon.ico' || path.startsWith('/assets/')
}

/**
 * An upstream base URL: http or https, a host, no credentials, query or fragment. A path is
 * kept as the base the request paths are appended to; a trailing slash is dropped.
 */
export function upstreamUrlOf(text: string): string {
  if (typeof text !== 'string' || text.length > UPSTREAM_LIMITS.maxUrlLength) invalid('/url', 'must be a URL')
  let url: URL
  try {
    url = new URL(text)
  } catch {
    invalid('/url', 'must be an absolute http or https URL (https://api.example.com)')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') invalid('/url', 'must use http or https')
  if (url.username !== '' || url.password !== '') invalid('/url', 'must not carry a user name or password')
  if (url.search !== '' || url.hash !== '') invalid('/url', 'must not have a query or a fragment')
  const path = url.pathname.replace(/\/+$/, '')
  return `${url.protocol}//${url.host}${path}`
}

function invalid(path: string, problem: string): never {
  throw new DomainError('VALIDATION_ERROR', `The upstream field "${path}" ${problem}.`, {
    details: { details: [{ location: 'body', path, problem }] }
  })
}
