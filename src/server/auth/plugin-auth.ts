import type { FastifyInstance, FastifyRequest } from 'fastify'

import { authenticatePluginCredential } from '../../core/credentials/plugin-credential-auth'
import type { Product } from '../../core/products/products'
import type { DOWNLOAD_TOKEN_NAMES } from '../../shared/contract/token-kinds'
import { oneValue } from '../http/one-value'
import { bearerToken, credentialHeaderNames } from './credential-headers'

/** The product credential as a licensing request presents it, with the compatibility forms of the key. */
export function presentedCredential(request: FastifyRequest, prefix: string) {
  const names = credentialHeaderNames(prefix)
  const header = (name: string) => {
    const value = request.headers[name]
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null
  }
  const bearer = bearerToken(request.headers)
  // Compatibility (docs/api.md section 5, licensing routes only): the key as x-svc-api-key or as Bearer.
  // Sent under two names with two values, it is a 400 naming both (never a silent pick; values never echoed).
  const pluginKey = oneValue(
    {
      [names.pluginKey]: header(names.pluginKey) ?? undefined,
      [names.apiKey]: header(names.apiKey) ?? undefined,
      'Authorization: Bearer': bearer && bearer.startsWith('pk_') ? bearer : undefined
    },
    'headers'
  )
  return { appId: header(names.appId), pluginKey: pluginKey ?? null, pluginSecret: header(names.pluginSecret) }
}

/** Authenticates the plugin behind a licensing request: PRODUCT_CREDENTIAL_INVALID otherwise. */
export function authenticatePlugin(
  app: FastifyInstance,
  request: FastifyRequest
): { product: Product; credentialId: string } {
  return authenticatePluginCredential(app.core, presentedCredential(request, app.settings.headerPrefix))
}

/** A name a library (or download) token travels under in a query or body (token-kinds.ts). */
export type LibraryTokenField = (typeof DOWNLOAD_TOKEN_NAMES)[number]

/** The hint of a 401 for a missing library token: only the forms this route accepts. */
export function libraryTokenHint(fields: readonly LibraryTokenField[], where: 'query' | 'query or body'): string {
  const names = fields.map((field) => `\`${field}\``)
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : (names[0] ?? '')
  return `Send a library token as "Authorization: Bearer <token>", or as ${list} in the ${where}.`
}
