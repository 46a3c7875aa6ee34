import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger'
import Fastify from 'fastify'
import type { FastifyInstance, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'

import { ERROR_CODES } from '../../shared/contract/error-codes'
import { describeTokenKinds } from '../../shared/contract/token-kinds'
import { ErrorResponse } from '../../shared/schemas/common'
import { NO_TOKEN } from '../auth/route-tokens'
import { finishDocument } from '../openapi/document'
import { securityFor, securitySchemes } from '../openapi/security'
import { deferredSerializers } from './deferred-serializers'
import type { ValidatorFactory } from './no-coercion-validation'
import { documentTolerance } from './tolerant-requests'

declare module 'fastify' {
  interface FastifyInstance {
    /** The OpenAPI 3.1 document of every route, built on first use and then kept. */
    openApiDocument(): Promise<Record<string, unknown>>
  }
}

/**
 * The OpenAPI 3.1 document, generated from the route schemas and served at /openapi.json.
 *
 * Built on first use, by @fastify/swagger over a scratch Fastify instance that is given the
 * server's routes as they were declared (collected here), never during a start: registering the
 * plugin loaded `yaml` and `json-schema-resolver` (about 100 ms of a 600 ms start on Node 24, as
 * measured for bench/README.md), and a plugin's session or a CI job may never ask for the document.
 */
export const openApi = fp(
  async (app) => {
    // The one error schema every route refers to, with every code the server can answer (the
    // renderer imports the schemas too, so the list is added here, on the server side only).
    app.addSchema({
      ...ErrorResponse,
      properties: {
        ...ErrorResponse.properties,
        error: {
          type: 'string',
          enum: [...ERROR_CODES],
          description:
            'UPPER_SNAKE error code: one of these, each listed with its status and meaning in docs/api.md (section 1, Envelope and errors).'
        }
      }
    })
    // As @fastify/swagger collects them; the HEAD twins Fastify adds are made again by the scratch instance.
    const routes: RouteOptions[] = []
    app.addHook('onRoute', (route) => {
      if (route.method !== 'HEAD') routes.push(route)
    })
    let ready = false
    app.addHook('onReady', async () => {
      ready = true
    })
    let document: Promise<Record<string, unknown>> | null = null
    app.decorate('openApiDocument', () => {
      // Before ready, routes may still be coming: a document then would be kept incomplete.
      if (!ready) return Promise.reject(new Error('openApiDocument() must be called after ready()'))
      return (document ??= describeRoutes(routes, app, documentOptions(app)))
    })
    app.get('/openapi.json', { config: { tokens: NO_TOKEN }, schema: { hide: true } }, async () =>
      app.openApiDocument()
    )
  },
  { name: 'openapi', dependencies: ['emulator-context'] }
)

/** What @fastify/swagger is given: the document's head, and how each route and the whole are finished. */
function documentOptions(app: FastifyInstance): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Plugin License Emulator',
        version: app.settings.version,
        description:
          'The licensing and distribution platform API, emulated on localhost. Contract: docs/api.md in the repository. ' +
          `Licensing calls authenticate with x-${app.settings.headerPrefix}-app-id, x-${app.settings.headerPrefix}-plugin-key and x-${app.settings.headerPrefix}-plugin-secret.`
      },
      components: { securitySchemes: securitySchemes(app.settings.headerPrefix) }
    },
    // Each operation's `security` and the sentence saying what it takes come from the token kinds
    // the route declares (config.tokens), which the server enforces: one declaration.
    transform: ({ schema, url, route }) => {
      if (!schema || schema.hide) return { schema, url }
      const tokens = route.config?.tokens
      if (!tokens) throw new Error(`OpenAPI: ${url} declares no token kinds (config.tokens)`)
      const takes = tokens.length === 0 ? 'Takes no token.' : `Takes ${describeTokenKinds(tokens)}.`
      const described = {
        ...schema,
        security: securityFor(tokens, { adminTokenInQuery: route.config?.adminTokenInQuery }),
        description: schema.description
          ? `${schema.description} ${takes}`
          : `${schema.summary ?? ''}. ${takes}`.replace(/^\. /, '')
      }
      // Unknown query parameters and body fields are ignored on the service API: documented as accepted.
      return { schema: documentTolerance(described, url), url }
    },
    transformObject: (documents) => {
      if (!('openapiObject' in documents)) throw new Error('OpenAPI 3 only')
      return finishDocument(documents.openapiObject)
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`)
    }
  }
}

/**
 * The scratch instance's validators: it answers nothing, so compiling every route's schemas would
 * be wasted (and the default factory would load Ajv). Cast as `noCoercionValidators` is: Fastify
 * types a factory's result as Ajv's compile, and uses it as any validator compiler.
 */
const validatesNothing = (() => () => () => true) as unknown as ValidatorFactory

/**
 * The document @fastify/swagger makes of `routes`, declared again on a scratch instance that
 * compiles nothing and answers nothing, with the server's shared schemas.
 */
async function describeRoutes(
  routes: readonly RouteOptions[],
  app: FastifyInstance,
  options: FastifyDynamicSwaggerOptions
): Promise<Record<string, unknown>> {
  const { default: swagger } = await import('@fastify/swagger')
  const scratch = Fastify({
    schemaController: { compilersFactory: { buildValidator: validatesNothing, buildSerializer: deferredSerializers } }
  })
  try {
    for (const schema of Object.values(app.getSchemas())) scratch.addSchema(schema)
    await scratch.register(swagger, options)
    for (const route of routes) {
      const { method, url, schema, config, links } = route as RouteOptions & { links?: unknown }
      scratch.route({
        method,
        url,
        schema,
        config,
        ...(links === undefined ? {} : { links }),
        handler: async () => null
      })
    }
    await scratch.ready()
    return scratch.swagger() as unknown as Record<string, unknown>
  } finally {
    await scratch.close()
  }
}
