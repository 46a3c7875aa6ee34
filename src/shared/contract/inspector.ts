/** The request inspector's vocabulary, as core stores it, the server answers it and the UI filters by it. */

/** Which part of the service API a request went to, by path prefix (in the order the UI offers them). */
export const SURFACES = [
  'developer-plugin-keys',
  'plugin-connections',
  'library',
  'license-v1',
  'downloads',
  'legacy',
  'well-known',
  'other'
] as const
export type Surface = (typeof SURFACES)[number]

/** How a request presented itself, read from its headers and query (never verified by the inspector). */
export const AUTH_KINDS = [
  'developer-jwt',
  'product-credential',
  'product-credential-bearer',
  'library-token',
  'user-jwt',
  'none'
] as const
export type AuthKind = (typeof AUTH_KINDS)[number]

/** The most entries one page of the request log holds. */
export const REQUEST_PAGE_MAX = 500

/**
 * Who sent a request: `client` (a plugin, a script, anything unmarked), `tester` (the UI's
 * connection tester, standing in for a plugin) or `ui` (the emulator's own screens loading a
 * library or managing credentials). The UI marks its calls with the `x-emulator-client` header.
 */
export const REQUEST_SOURCES = ['client', 'tester', 'ui'] as const
export type RequestSource = (typeof REQUEST_SOURCES)[number]

/** The header the emulator's own UI sends on its service API calls, naming a source. */
export const SOURCE_HEADER = 'x-emulator-client'

/**
 * Who answered a request (docs/upstream.md): the emulator itself, the upstream it was forwarded
 * to, or a recording being replayed. The same values as the `x-emulator-source` header.
 */
export const ANSWERED_BY = ['emulator', 'upstream', 'recording'] as const
export type AnsweredBy = (typeof ANSWERED_BY)[number]
