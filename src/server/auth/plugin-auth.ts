import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Product } from '../../core/products/products'
import { authenticatePluginCredential } from '../../core/credentials/plugin-credential-auth'
import { bearerToken, credentialHeaderNames, looksLikeProductCredential } from './credential-headers'

/** The product credential as a licensing request presents it, with the compatibility forms of the key. */
export function presentedCredential(request: FastifyRequest, prefix: string) {
  const names = credentialHeaderNames(prefix)
  const header = (name: string) => {
    const value = request.headers[name]
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
  }
  const bearer = bearerToken(request.headers)
  // Compatibility (docs/api.md section 5, licensing routes only): the key as x-svc-api-key or as Bearer.
  const pluginKey = header(names.pluginKey) ?? header(names.apiKey) ?? (bearer && bearer.startsWith('pk_') ? bearer : null)
  return { appId: header(names.appId), pluginKey, pluginSecret: header(names.pluginSecret) }
}

/** True when the request carries any part of a product credential (so plugin context was intended). */
export function hasPluginContext(request: FastifyRequest, prefix: string): boolean {
  const presented = presentedCredential(request, prefix)
  return presented.appId !== null || presented.pluginKey !== null || presented.pluginSecret !== null
}

/** Authenticates the plugin behind a licensing request: PRODUCT_CREDENTIAL_INVALID otherwise. */
export function authenticatePlugin(app: FastifyInstance, request: FastifyRequest): { product: Product; credentialId: string } {
  return authenticatePluginCredential(app.core, presentedCredential(request, app.settings.headerPrefix))
}

/** A library token from the Bearer header, unless the Bearer value is a product credential. */
export function bearerLibraryToken(request: FastifyRequest): string | null {
  const bearer = bearerToken(request.headers)
  return bearer && !looksLikeProductCredential(bearer) ? bearer : null
}

/**
 * The names a library token travels under, one set for every route that takes one: `token`,
 * `library_token` (the field library-token answers with), `libraryToken`, and `download_token`
 * where the route also takes the library's download token (the library, downloads).
 */
export const LIBRARY_TOKEN_FIELDS = ['token', 'library_token', 'libraryToken'] as const
export const LIBRARY_OR_DOWNLOAD_TOKEN_FIELDS = [...LIBRARY_TOKEN_FIELDS, 'download_token'] as const
export type LibraryTokenField = (typeof LIBRARY_OR_DOWNLOAD_TOKEN_FIELDS)[number]

/** The library token of a request: Bearer, else the first of `fields` found in the query, else in the body. */
export function presentedLibraryToken(request: FastifyRequest, fields: readonly LibraryTokenField[]): string | null {
  const bearer = bearerLibraryToken(request)
  if (bearer) return bearer
  for (const part of [request.query, request.body]) {
    if (!part || typeof part !== 'object') continue
    for (const field of fields) {
      const value = (part as Record<string, unknown>)[field]
      if (typeof value === 'string' && value !== '') return value
    }
  }
  return null
}

/** The hint of a 401 for a missing library token: only the forms this route accepts. */
export function libraryTokenHint(fields: readonly LibraryTokenField[], where: 'query' | 'query or body'): string {
  const names = fields.map((field) => `\`${field}\``)
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : (names[0] ?? '')
  return `Send a library token as "Authorization: Bearer <token>", or as ${list} in the ${where}.`
}
