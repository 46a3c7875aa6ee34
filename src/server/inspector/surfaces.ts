import type { Surface } from '../../shared/contract/inspector'

/** The path part of a URL, without query or fragment. */
export function pathOf(url: string): string {
  const end = url.search(/[?#]/)
  return end < 0 ? url : url.slice(0, end)
}

/**
 * True for requests to the service API, the ones QA watches. The control plane, the OpenAPI
 * document and the UI page are the emulator talking about itself, not the service: recording
 * them would drown the plugin's calls (the UI polls) and would record the admin token's use.
 */
export function isServiceRequest(url: string): boolean {
  const path = pathOf(url)
  if (path === '/_emulator' || path.startsWith('/_emulator/')) return false
  // The router ignores one trailing slash, so `/openapi.json/` is the same document.
  if (path === '/openapi.json' || path === '/openapi.json/') return false
  // The UI at `/` with its built files, and the icon a browser fetches by itself for that page.
  if (path === '/' || path === '' || path === '/index.html' || path === '/favicon.ico') return false
  if (path.startsWith('/assets/')) return false
  return true
}

// Longest prefixes first: the product-scoped keys live under the retired developer-level path.
const SURFACE_PREFIXES: readonly (readonly [string, Surface])[] = [
  ['/api/developer/plugin-keys/products', 'developer-plugin-keys'],
  ['/api/developer/plugin-keys', 'legacy'],
  ['/api/plugin-connections', 'plugin-connections'],
  ['/api/license/v1', 'license-v1'],
  ['/api/library', 'library'],
  ['/api/downloads', 'downloads'],
  ['/.well-known', 'well-known']
]

export function surfaceOf(url: string): Surface {
  const path = pathOf(url)
  for (const [prefix, surface] of SURFACE_PREFIXES) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return surface
  }
  return 'other'
}
