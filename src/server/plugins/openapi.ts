import swagger from '@fastify/swagger'
import fp from 'fastify-plugin'

import { ERROR_CODES } from '../../shared/contract/error-codes'
import { describeTokenKinds } from '../../shared/contract/token-kinds'
import { ErrorResponse } from '../../shared/schemas/common'
import { NO_TOKEN } from '../auth/route-tokens'
import { finishDocument } from '../openapi/document'
import { securityFor, securitySchemes } from '../openapi/security'
import { documentTolerance } from './tolerant-requests'

/** The OpenAPI 3.1 document, generated from the route schemas and served at /openapi.json. */
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
    await app.register(swagger, {
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
    })
    app.get('/openapi.json', { config: { tokens: NO_TOKEN }, schema: { hide: true } }, async () => app.swagger())
  },
  { name: 'openapi', dependencies: ['emulator-context'] }
)
