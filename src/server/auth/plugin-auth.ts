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
  // Compatibility (decisions.md section 5, licensing routes only): the key as x-svc-api-key or as Bearer.
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
