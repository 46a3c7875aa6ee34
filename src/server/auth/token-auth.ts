import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'

import { sameSecret } from '../../core/crypto/digest'
import type { Customer } from '../../core/customers/customers'
import { DomainError } from '../../core/errors/domain-error'
import type { LibraryScope } from '../../core/library/library-service'
import type { Product } from '../../core/products/products'
import type { DomainErrorCode } from '../../shared/contract/error-codes'
import { describeTokenKinds, TOKEN_KIND_INFO } from '../../shared/contract/token-kinds'
import type { TokenKind } from '../../shared/contract/token-kinds'
import { bearerToken, looksLikeProductCredential, presentsProductCredential } from './credential-headers'
import { authenticatePlugin, libraryTokenHint } from './plugin-auth'
import type { LibraryTokenField } from './plugin-auth'
import { recogniseTokenKind } from './token-kind-of'
import type { RecognisedKind } from './token-kind-of'

import './route-tokens'
import './developer-auth'

/** Who a request speaks for, once its route's token kinds are checked (null on public routes). */
export interface RequestAuth {
  /** The kind that identified the caller. */
  kind: TokenKind
  /** A customer: library kinds, a customer session, or a developer signed in to claim. */
  customer: Customer | null
  /** How far a library or download token reaches (vendor, download token). */
  scope: LibraryScope | null
  /** Plugin context, when the route takes the product credential and it was sent. */
  plugin: { product: Product; credentialId: string } | null
}

export interface RouteTokenDeclaration {
  method: string
  url: string
  tokens: readonly TokenKind[]
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null
  }
  interface FastifyInstance {
    /** Every route with the token kinds it declared: the matrix test and the docs read this. */
    readonly routeTokens: readonly RouteTokenDeclaration[]
  }
}

/** The check functions this plugin added, so none is added twice to one route. */
const authChecks = new WeakSet<object>()

const LIBRARY_KINDS: readonly TokenKind[] = ['libraryToken', 'vendorLibraryToken', 'downloadToken']
/** Kinds carried in headers only: checked before the body is read, as the management API always was. */
const HEADER_ONLY: readonly TokenKind[] = ['developerJwt', 'adminToken']

/**
 * The one place that enforces which kinds of token a route takes (its `config.tokens`), with
 * their scope and vendor claims (docs/api.md, "Tokens and scopes"). A route without a
 * declaration cannot be registered.
 */
export const tokenAuth = fp(
  async (app) => {
    const declarations: RouteTokenDeclaration[] = []
    app.decorate('routeTokens', declarations)
    app.decorateRequest('auth', null)
    app.decorateRequest('developer', null)

    app.addHook('onRoute', (route: RouteOptions) => {
      const declared = route.config?.tokens
      // The UI's static files (hidden from the OpenAPI document) are public by nature.
      const hidden = route.schema?.hide === true
      if (declared === undefined && !hidden) {
        throw new Error(
          `Route ${String(route.method)} ${route.url} declares no token kinds (config.tokens); see docs/api.md "Tokens and scopes".`
        )
      }
      const tokens = declared ?? []
      for (const method of [route.method].flat()) declarations.push({ method, url: route.url, tokens })
      if (tokens.length === 0) return
      // A HEAD twin Fastify makes from a GET may arrive with the GET's hooks already in place.
      const hooks = [route.onRequest ?? [], route.preHandler ?? []].flat() as object[]
      if (hooks.some((hook) => authChecks.has(hook))) return
      const check = async (request: FastifyRequest) => {
        request.auth = await authenticate(app, request, tokens)
      }
      authChecks.add(check)
      if (tokens.every((kind) => HEADER_ONLY.includes(kind))) {
        route.onRequest = [...[route.onRequest ?? []].flat(), check]
      } else {
        // Library tokens may travel in the body: checked once it is parsed and validated.
        route.preHandler = [...[route.preHandler ?? []].flat(), check]
      }
    })
  },
  { name: 'token-auth', dependencies: ['emulator-context'] }
)

/** How a route family answers a missing, wrong or bad token (docs/api.md section 1). */
function failureCode(kinds: readonly TokenKind[]): DomainErrorCode {
  if (kinds.some((kind) => LIBRARY_KINDS.includes(kind))) return 'LIBRARY_TOKEN_INVALID'
  if (kinds.length === 1 && kinds[0] === 'productCredential') return 'PRODUCT_CREDENTIAL_INVALID'
  return 'INVALID_TOKEN'
}

function labelOf(kind: RecognisedKind): string {
  return kind === 'licenseToken'
    ? 'a license token (it proves a license offline; it is no request credential)'
    : kind
      ? TOKEN_KIND_INFO[kind].label
      : ''
}

/** 401 (403 for a product credential on the management API) naming the kind received and the kinds taken. */
function wrongKind(kinds: readonly TokenKind[], received: Exclude<RecognisedKind, null>): DomainError {
  const message = `This route takes ${describeTokenKinds(kinds)}; this request sent ${labelOf(received)}.`
  const details = { details: { tokenKind: { received, accepted: kinds } } }
  if (received === 'productCredential' && kinds.includes('developerJwt') && !kinds.includes('customerJwt')) {
    return new DomainError(
      'PRODUCT_CREDENTIAL_NOT_ACCEPTED',
      'Product credentials (App ID, plugin key, plugin secret) are for plugins and the licensing API; the management API needs a developer session token.',
      details
    )
  }
  return new DomainError(failureCode(kinds), message, details)
}

/** The names a route reads a library token under: the union of its kinds' names. */
function tokenFields(kinds: readonly TokenKind[], part: 'query' | 'body'): LibraryTokenField[] {
  const names = new Set<LibraryTokenField>()
  for (const kind of kinds)
    for (const name of TOKEN_KIND_INFO[kind].transport[part]) names.add(name as LibraryTokenField)
  return [...names]
}

function firstField(part: unknown, fields: readonly string[]): string | null {
  if (!part || typeof part !== 'object') return null
  for (const field of fields) {
    const value = (part as Record<string, unknown>)[field]
    if (typeof value === 'string' && value !== '') return value
  }
  return null
}

function missingTokenError(
  kinds: readonly TokenKind[],
  request: FastifyRequest,
  fields: { query: string[]; body: string[] }
): DomainError {
  const code = failureCode(kinds)
  if (code === 'LIBRARY_TOKEN_INVALID') {
    const named = [...new Set([...fields.query, ...fields.body])] as LibraryTokenField[]
    const where = request.method === 'POST' && fields.body.length > 0 ? 'query or body' : 'query'
    const plugin = kinds.includes('productCredential')
      ? ' Or send the product credential headers with a `license_key`.'
      : ''
    return new DomainError(code, `${libraryTokenHint(named, where)}${plugin}`)
  }
  if (kinds.includes('customerJwt')) {
    return new DomainError(
      'AUTH_REQUIRED',
      'Sign in: send a customer or developer session token as "Authorization: Bearer <token>".'
    )
  }
  return new DomainError('AUTH_REQUIRED', 'Send a developer session token as "Authorization: Bearer <token>".')
}

async function authenticate(
  app: FastifyInstance,
  request: FastifyRequest,
  kinds: readonly TokenKind[]
): Promise<RequestAuth> {
  const { core, settings } = app
  const accepts = (kind: TokenKind) => kinds.includes(kind)

  if (accepts('adminToken')) {
    const header = request.headers['x-emulator-token']
    const query = request.routeOptions.config.adminTokenInQuery ? firstField(request.query, ['token']) : null
    const value = typeof header === 'string' && header !== '' ? header : query
    if (!value) {
      const bearer = bearerToken(request.headers)
      const sent = bearer ? recogniseTokenKind(bearer, settings.adminToken) : null
      const instead = sent ? ` This request sent ${labelOf(sent)} instead.` : ''
      const how = request.routeOptions.config.adminTokenInQuery ? ' (or, for EventSource, as ?token=)' : ''
      throw new DomainError('AUTH_REQUIRED', `Send the admin token in the x-emulator-token header${how}.${instead}`)
    }
    if (!sameSecret(value, settings.adminToken))
      throw new DomainError('INVALID_TOKEN', 'The admin token does not match.')
    return { kind: 'adminToken', customer: null, scope: null, plugin: null }
  }

  const presentsCredential = presentsProductCredential(request.headers, settings.headerPrefix)
  if (kinds.length === 1 && kinds[0] === 'productCredential') {
    // The licensing routes: the credential headers decide; another kind of Bearer alone is named.
    const bearer = bearerToken(request.headers)
    const sent = !presentsCredential && bearer ? recogniseTokenKind(bearer, settings.adminToken) : null
    if (sent !== null && sent !== 'productCredential') throw wrongKind(kinds, sent)
    return { kind: 'productCredential', customer: null, scope: null, plugin: authenticatePlugin(app, request) }
  }
  // The management API refuses any product credential outright, even beside a session token.
  if (presentsCredential && accepts('developerJwt') && !accepts('customerJwt'))
    throw wrongKind(kinds, 'productCredential')
  const plugin = presentsCredential && accepts('productCredential') ? authenticatePlugin(app, request) : null

  const fields = {
    query: tokenFields(kinds, 'query'),
    body: request.method === 'POST' ? tokenFields(kinds, 'body') : []
  }
  const bearer = bearerToken(request.headers)
  const value =
    (bearer && !looksLikeProductCredential(bearer) ? bearer : null) ??
    firstField(request.query, fields.query) ??
    firstField(request.body, fields.body)

  if (!value) {
    if (plugin) return { kind: 'productCredential', customer: null, scope: null, plugin }
    if (presentsCredential) throw wrongKind(kinds, 'productCredential')
    // "Bearer a b" is a token sent badly, not no token.
    if (/^Bearer\s+\S/i.test(request.headers.authorization ?? '')) {
      throw new DomainError(
        failureCode(kinds),
        'The Authorization header must be "Bearer <token>" with a single token.'
      )
    }
    throw missingTokenError(kinds, request, fields)
  }

  const recognised = recogniseTokenKind(value, settings.adminToken)
  if (recognised !== null && (recognised === 'licenseToken' || !accepts(recognised))) throw wrongKind(kinds, recognised)
  if (recognised === null) {
    throw new DomainError(failureCode(kinds), `This is not ${describeTokenKinds(kinds)} issued by this emulator.`)
  }

  switch (recognised) {
    case 'developerJwt': {
      const claims = await core.sessions.verify(value, 'developer')
      const developer = core.developers.find(claims.sub)
      if (!developer) throw new DomainError('INVALID_TOKEN', 'The developer this token was issued to no longer exists.')
      // The role comes from the database, not the token, so a demotion takes effect at once.
      request.developer = { kind: 'developer', developerId: developer.id, role: developer.role }
      const customer = accepts('customerJwt') ? core.customers.ensureForDeveloper(developer) : null
      return { kind: recognised, customer, scope: null, plugin }
    }
    case 'customerJwt': {
      const claims = await core.sessions.verify(value, 'customer')
      const customer = core.customers.findByUserId(claims.sub)
      if (!customer) throw new DomainError('INVALID_TOKEN', 'The user this token was issued to no longer exists.')
      return { kind: recognised, customer, scope: null, plugin }
    }
    case 'libraryToken':
    case 'vendorLibraryToken':
    case 'downloadToken': {
      const { customer, grant } = await core.library.grantOf(value)
      // A plugin may use a vendor's token only when it is that vendor's plugin: no widening across vendors.
      if (plugin && grant.vendorId !== null && grant.vendorId !== plugin.product.developerId) {
        throw new DomainError(
          'LIBRARY_TOKEN_INVALID',
          "This vendor library token is for another vendor's products than the calling plugin's."
        )
      }
      const downloadToken = recognised === 'downloadToken' ? value : null
      return { kind: recognised, customer, scope: { vendorId: grant.vendorId, downloadToken }, plugin }
    }
    case 'productCredential':
    case 'adminToken':
      // A plugin key or secret sent where a library token goes (`?token=pk_...`).
      throw new DomainError(
        failureCode(kinds),
        `Send the product credential in the x-${settings.headerPrefix}-* headers, not as a token field.`
      )
  }
}

/** The authenticated caller of a route that declared token kinds. */
export function requestAuth(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new DomainError('AUTH_REQUIRED', 'This route needs a token.')
  return request.auth
}

/** The plugin behind a request whose route takes the product credential and got it. */
export function requestPlugin(request: FastifyRequest): NonNullable<RequestAuth['plugin']> {
  const plugin = requestAuth(request).plugin
  if (!plugin)
    throw new DomainError('PRODUCT_CREDENTIAL_INVALID', 'Send the App ID, plugin key and plugin secret headers.')
  return plugin
}

/** The customer behind a request whose route takes a library, download or session token. */
export function requestCustomer(request: FastifyRequest): { customer: Customer; scope: LibraryScope | null } {
  const { customer, scope } = requestAuth(request)
  if (!customer) throw new DomainError('AUTH_REQUIRED', 'This route needs a token that names a customer.')
  return { customer, scope }
}
