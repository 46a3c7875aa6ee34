import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import { ErrorResponse } from '../../shared/schemas/common'
import { ERROR_CODES } from '../errors/error-codes'
import { documentTolerance } from './tolerant-requests'
import { NO_TOKEN } from '../auth/route-tokens'

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
          description: 'UPPER_SNAKE error code: one of these, each listed with its status and meaning in the README (Errors).'
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
        components: {
          securitySchemes: {
            developerJwt: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description: 'Developer session token (POST /_emulator/developers/:id/session).'
            },
            adminToken: { type: 'apiKey', in: 'header', name: 'x-emulator-token', description: 'The emulator admin token (control plane).' },
            pluginAppId: { type: 'apiKey', in: 'header', name: `x-${app.settings.headerPrefix}-app-id`, description: 'The App ID.' },
            pluginKey: {
              type: 'apiKey',
              in: 'header',
              name: `x-${app.settings.headerPrefix}-plugin-key`,
              description: `The plugin key. Licensing routes also accept it as x-${app.settings.headerPrefix}-api-key or as a Bearer value (compatibility).`
            },
            pluginSecret: { type: 'apiKey', in: 'header', name: `x-${app.settings.headerPrefix}-plugin-secret`, description: 'The plugin secret.' }
          }
        }
      },
      // Unknown query parameters and body fields are ignored on the service API: documented as accepted.
      transform: ({ schema, url }) => ({ schema: documentTolerance(schema, url), url }),
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`)
      }
    })
    app.get('/openapi.json', { config: { tokens: NO_TOKEN }, schema: { hide: true } }, async () => app.swagger())
  },
  { name: 'openapi', dependencies: ['emulator-context'] }
)
