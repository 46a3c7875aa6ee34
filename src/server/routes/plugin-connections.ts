import { Type } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../schemas/common'

const CredentialField = (description: string) => Type.String({ minLength: 1, maxLength: 512, description })

/** POST /api/plugin-connections/verify: section 4.2, answered as decisions.md section 3 pins. */
export const pluginConnectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/verify',
    {
      schema: {
        tags: ['Plugin connections'],
        summary: 'Confirm that product ID, App ID, plugin key and plugin secret belong together',
        description:
          'Records the product connection status on every attempt. Failure is 401 PLUGIN_CONNECTION_FAILED with `verified: false` and a `reason` (UNKNOWN_PRODUCT, APP_ID_MISMATCH, KEY_MISMATCH, SECRET_MISMATCH, CREDENTIAL_REVOKED), hidden in --strict mode.',
        body: Type.Object(
          {
            productId: CredentialField('The product ID (not the App ID).'),
            appId: CredentialField('The App ID.'),
            pluginKey: CredentialField('The plugin key.'),
            pluginSecret: CredentialField('The plugin secret.')
          },
          { additionalProperties: false }
        ),
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            verified: Type.Literal(true),
            connection: Type.Object({
              productId: Type.String(),
              appId: Type.String(),
              status: Type.Literal('verified'),
              verifiedAt: Type.String({ format: 'date-time' })
            })
          }),
          ...errorResponses
        }
      }
    },
    async (request) => {
      const connection = app.core.connections.verify(request.body)
      return { ok: true as const, verified: true as const, connection }
    }
  )
}
