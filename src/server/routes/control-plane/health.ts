import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { errorResponses } from '../../../shared/schemas/common'
import { HealthResponse } from '../../../shared/schemas/server-info'
import { NO_TOKEN } from '../../auth/route-tokens'

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      config: { tokens: NO_TOKEN },
      schema: {
        tags: ['Emulator'],
        summary: 'Liveness: version and uptime (no admin token needed)',
        // A request with a foreign Host or Origin is refused (4xx) even here.
        response: { 200: HealthResponse, ...errorResponses }
      }
    },
    async () => ({
      ok: true as const,
      version: app.settings.version,
      uptimeS: Math.round((Date.now() - app.settings.startedAt) / 100) / 10
    })
  )
}
