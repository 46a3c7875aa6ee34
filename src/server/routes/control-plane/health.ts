import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from 'typebox'

import type { StorageFault } from '../../../core/store/storage-faults'
import { errorResponses } from '../../../shared/schemas/common'
import { HealthResponse, StorageStateSchema } from '../../../shared/schemas/server-info'
import { NO_TOKEN } from '../../auth/route-tokens'
import { plainJsonSerializer } from '../../plugins/plain-json-serializer'

function storageState(fault: StorageFault | null): Static<typeof StorageStateSchema> {
  return fault === null
    ? { writable: true }
    : {
        writable: false,
        error: fault.code,
        message: fault.message,
        since: fault.since,
        ...(fault.restartNeeded ? { restartNeeded: true as const } : {})
      }
}

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/health',
    {
      config: { tokens: NO_TOKEN },
      // The answer is built here field by field: JSON.stringify writes it as fast-json-stringify
      // would, and a start's first probe does not load that compiler (deferred-serializers.ts).
      serializerCompiler: plainJsonSerializer,
      schema: {
        tags: ['Emulator'],
        summary: 'Liveness: version, uptime and whether writes fail for storage (no admin token needed)',
        // A request with a foreign Host or Origin is refused (4xx) even here.
        response: { 200: HealthResponse, ...errorResponses }
      }
    },
    async () => ({
      ok: true as const,
      version: app.settings.version,
      uptimeS: Math.round((Date.now() - app.settings.startedAt) / 100) / 10,
      storage: storageState(app.core.storage.health.current())
    })
  )
}
