import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { errorResponses } from '../../shared/schemas/common'
import { JwksResponse } from '../../shared/schemas/licensing'
import { NO_TOKEN } from '../auth/route-tokens'

/** Public signing keys: verify developer session tokens and signed license tokens offline. */
export const wellKnownRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/.well-known/jwks.json',
    {
      config: { tokens: NO_TOKEN },
      schema: {
        tags: ['Keys'],
        summary: 'JSON Web Key Set of the emulator signing keys (Ed25519, alg EdDSA)',
        response: {
          200: JwksResponse,
          // Fault rules (rate limits, injected errors) reach every service route.
          ...errorResponses
        }
      }
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300')
      return { ok: true as const, ...app.core.keys.jwks() }
    }
  )
}
