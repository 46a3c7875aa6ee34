import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import { exportSPKI } from 'jose'
import type { Static } from 'typebox'

import { TOKEN_ISSUER } from '../../../shared/contract/licensing'
import { ERROR_ANSWERS, errorAnswers, LICENSE_ACTION_ERRORS } from '../../../shared/schemas/error-answers'
import { LibraryContextFields, WebviewResponse } from '../../../shared/schemas/library'
import {
  ActivateBody,
  ActivateResponse,
  DeactivateBody,
  DeactivateResponse,
  LibraryTokenResponse,
  PublicKeyResponse,
  ValidateBody,
  ValidateResponse
} from '../../../shared/schemas/licensing'
import { LIBRARY_CONTEXT, NO_TOKEN, PRODUCT_CREDENTIAL } from '../../auth/route-tokens'
import { requestAuth, requestPlugin } from '../../auth/token-auth'
import { sendJsonInChunks } from '../../http/json-chunks'
import { libraryLinks } from '../../http/library-links'
import { oneValue } from '../../http/one-value'
import { plainJsonSerializer } from '../../plugins/plain-json-serializer'
import { activationView, licenseView } from './presenters'

const tags = ['Licensing v1']
const LIBRARY_CONTEXT_ERRORS = [
  ERROR_ANSWERS.validation,
  ERROR_ANSWERS.productNotFound,
  ERROR_ANSWERS.libraryTokenInvalid,
  ERROR_ANSWERS.productCredentialInvalid,
  ERROR_ANSWERS.licenseNotFound,
  ERROR_ANSWERS.scopeMismatch
]

/**
 * Licensing under /api/license/v1 (docs/api.md section 5), authenticated by the product
 * credential headers. library-token and webview-library also take a library token instead.
 * activate, validate and deactivate answer with JSON.stringify (plain-json-serializer.ts): their
 * answers are built field by field here and in presenters.ts.
 */
export const licenseV1Routes: FastifyPluginAsyncTypebox = async (app) => {
  const { licensing, library } = app.core

  app.post(
    '/activate',
    {
      config: { tokens: PRODUCT_CREDENTIAL, storage: 'grouped' },
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags,
        summary: 'Activate a license on an instance (201 new, 200 already active on it)',
        body: ActivateBody,
        response: {
          '2xx': ActivateResponse,
          ...errorAnswers(...LICENSE_ACTION_ERRORS, ERROR_ANSWERS.tooManyActivations)
        }
      }
    },
    async (request, reply) => {
      const { product } = requestPlugin(request)
      const body = request.body
      const outcome = await licensing.activate(product, {
        licenseKey: body.license_key,
        instanceId: body.instance_id,
        instanceName: body.instance_name,
        platform: body.platform,
        appVersion: body.app_version,
        nonce: body.nonce
      })
      return reply.code(outcome.created ? 201 : 200).send({
        ok: true as const,
        activated: true as const,
        created: outcome.created,
        code: 'VALID' as const,
        message: outcome.created ? 'Activated on this instance.' : 'Already active on this instance.',
        license: licenseView(outcome.standing),
        activation: activationView(outcome.standing.activation as NonNullable<typeof outcome.standing.activation>),
        license_token: outcome.licenseToken
      })
    }
  )

  app.post(
    '/validate',
    {
      config: { tokens: PRODUCT_CREDENTIAL, storage: 'grouped' },
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags,
        summary: 'Validate a license (always 200 once authenticated; see `valid` and `code`)',
        body: ValidateBody,
        response: {
          200: ValidateResponse,
          ...errorAnswers(ERROR_ANSWERS.validation, ERROR_ANSWERS.productCredentialInvalid)
        }
      }
    },
    async (request) => {
      const { product } = requestPlugin(request)
      const result = await licensing.validate(product, {
        licenseKey: request.body.license_key,
        instanceId: request.body.instance_id,
        nonce: request.body.nonce
      })
      return {
        ok: true as const,
        valid: result.code === 'VALID',
        code: result.code,
        message: result.message,
        ...(result.standing ? { license: licenseView(result.standing) } : {}),
        ...(result.standing?.activation ? { activation: activationView(result.standing.activation) } : {}),
        ...(result.licenseToken ? { license_token: result.licenseToken } : {})
      }
    }
  )

  app.post(
    '/deactivate',
    {
      config: { tokens: PRODUCT_CREDENTIAL },
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags,
        summary: 'Deactivate a license on an instance, freeing its slot',
        body: DeactivateBody,
        response: {
          200: DeactivateResponse,
          ...errorAnswers(...LICENSE_ACTION_ERRORS, ERROR_ANSWERS.notActivated)
        }
      }
    },
    async (request) => {
      const { product } = requestPlugin(request)
      const standing = licensing.deactivate(product, {
        licenseKey: request.body.license_key,
        instanceId: request.body.instance_id
      })
      return {
        ok: true as const,
        deactivated: true as const,
        license: licenseView(standing),
        activation: activationView(standing.activation as NonNullable<typeof standing.activation>)
      }
    }
  )

  /**
   * Who the library-token and webview-library calls speak for: the library token's customer, else
   * the customer of `license_key` under plugin context. Plugin context narrows to the vendor.
   */
  function resolveCustomer(request: FastifyRequest, licenseKey: string | undefined) {
    const auth = requestAuth(request)
    const customer = auth.customer ?? library.customerFromLicense(requestPlugin(request).product, licenseKey ?? null)
    const vendorId = auth.plugin?.product.developerId ?? auth.scope?.vendorId ?? null
    return { customer, productId: auth.plugin?.product.id ?? null, vendorId }
  }

  /** The same field from a POST body or the query: one value, or a 400 when they disagree. */
  function field(request: FastifyRequest, ...names: string[]): string | undefined {
    const query = request.query as Record<string, string | undefined>
    const body = (request.body ?? {}) as Record<string, string | undefined>
    const values: Record<string, string | undefined> = {}
    for (const name of names) values[name] = body[name] ?? query[name]
    return oneValue(values, request.method === 'POST' ? 'body or query' : 'query')
  }

  for (const method of ['GET', 'POST'] as const) {
    app.route({
      method,
      url: '/library-token',
      config: { tokens: LIBRARY_CONTEXT },
      schema: {
        tags,
        summary: 'A library token for the package and web view library flows',
        description:
          'Identify the customer with a library token (Bearer, or `token`, `library_token` or `libraryToken` in the query or a POST body), or with the product credential headers plus `license_key`.',
        ...(method === 'GET'
          ? { querystring: LibraryContextFields }
          : { querystring: LibraryContextFields, body: LibraryContextFields }),
        response: { 200: LibraryTokenResponse, ...errorAnswers(...LIBRARY_CONTEXT_ERRORS) }
      },
      handler: async (request) => {
        const { customer, vendorId } = resolveCustomer(request, field(request, 'license_key'))
        return {
          ok: true as const,
          ...(await library.issueToken(customer, libraryLinks(app.core.apiBaseUrl()), vendorId))
        }
      }
    })

    app.route({
      method,
      url: '/webview-library',
      config: { tokens: LIBRARY_CONTEXT },
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags,
        summary: 'The customer library, compact, for an in-plugin web view (scoped to the calling product)',
        description:
          'The same groups and filters as GET /api/library: `storefront`/`storefrontSlug` filter to one storefront, `instance_id`/`instanceId`/`machine_id` mark what is activated on that device (query, or a POST body). With the product credential headers (and `license_key` when no library token is sent), every group is narrowed to the calling product.',
        ...(method === 'GET'
          ? { querystring: LibraryContextFields }
          : { querystring: LibraryContextFields, body: LibraryContextFields }),
        response: { 200: WebviewResponse, ...errorAnswers(...LIBRARY_CONTEXT_ERRORS) }
      },
      handler: async (request, reply) => {
        const { customer, productId, vendorId } = resolveCustomer(request, field(request, 'license_key'))
        const scope = requestAuth(request).scope
        const payload = await library.webview(customer, {
          links: libraryLinks(app.core.apiBaseUrl()),
          instanceId: field(request, 'instance_id', 'instanceId', 'machine_id'),
          storefront: field(request, 'storefront', 'storefrontSlug'),
          productId: productId ?? field(request, 'productId') ?? null,
          scope: { vendorId, downloadToken: scope?.downloadToken ?? null }
        })
        const answer: Static<typeof WebviewResponse> = { ok: true as const, ...payload }
        // As large as the library it narrows: sent in chunks, never as one string.
        return sendJsonInChunks(reply, answer)
      }
    })
  }

  app.get(
    '/public-key',
    {
      config: { tokens: NO_TOKEN },
      schema: {
        tags,
        summary: 'The license-token verification key: PEM (SPKI), raw Ed25519 hex, and JWK',
        response: {
          200: PublicKeyResponse,
          // Fault rules (rate limits, injected errors) reach every service route.
          ...errorAnswers()
        }
      }
    },
    async () => {
      const key = app.core.keys.get('license')
      return {
        ok: true as const,
        kid: key.kid,
        alg: 'EdDSA' as const,
        crv: 'Ed25519' as const,
        typ: 'license+jwt' as const,
        public_key_pem: await exportSPKI(key.publicKey),
        public_key_hex: Buffer.from(key.publicJwk.x, 'base64url').toString('hex'),
        jwk: key.publicJwk,
        issuer: TOKEN_ISSUER
      }
    }
  )
}
