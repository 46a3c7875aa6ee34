import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { ERROR_ANSWERS, errorAnswers } from '../../shared/schemas/error-answers'
import { VerifiedConnectionResponse, VerifyConnectionBody } from '../../shared/schemas/plugin-connections'
import { NO_TOKEN } from '../auth/route-tokens'
import { plainJsonSerializer } from '../plugins/plain-json-serializer'

/** POST /api/plugin-connections/verify: section 4.2, answered as docs/api.md section 3 pins. */
export const pluginConnectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/verify',
    {
      // The credential travels in the body, as data to check, not as a token of the request.
      config: { tokens: NO_TOKEN, storage: 'grouped' },
      // Built field by field (here and in the connection verifier): JSON.stringify writes it.
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags: ['Plugin connections'],
        summary: 'Confirm that product ID, App ID, plugin key and plugin secret belong together',
        description:
          'Records the product connection status on every attempt. Failure is 401 PLUGIN_CONNECTION_FAILED with `verified: false` and a `reason` (UNKNOWN_PRODUCT, APP_ID_MISMATCH, KEY_MISMATCH, SECRET_MISMATCH, CREDENTIAL_REVOKED), hidden in --strict mode.',
        body: VerifyConnectionBody,
        response: {
          200: VerifiedConnectionResponse,
          ...errorAnswers(ERROR_ANSWERS.validation, ERROR_ANSWERS.connectionFailed)
        }
      }
    },
    async (request) => {
      const connection = await app.core.connections.verify(request.body)
      return { ok: true as const, verified: true as const, connection }
    }
  )
}
