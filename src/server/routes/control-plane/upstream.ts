import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { errorResponses } from '../../../shared/schemas/common'
import { UpstreamBody, UpstreamResponse } from '../../../shared/schemas/upstream'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

const tags = ['Emulator']

/**
 * The upstream setting (docs/upstream.md): where the service API is forwarded. A setting of the
 * machine, not of the scenario: exports do not carry it and a reset keeps it.
 */
export const upstreamControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/upstream',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Where the service API is forwarded (url null: nowhere, the emulator answers)',
        response: { 200: UpstreamResponse, ...errorResponses }
      }
    },
    async () => ({ ok: true as const, upstream: app.upstream.current() })
  )

  app.put(
    '/upstream',
    {
      config: { tokens: ADMIN_TOKEN, storage: 'memory' },
      schema: {
        tags,
        summary: 'Forward the service API to the real platform, or stop (url null)',
        description:
          'Matching requests go to the upstream unchanged (method, path, query, body) and its answers come back ' +
          'unchanged, marked `x-emulator-source: upstream`. Failures answer 502 UPSTREAM_UNREACHABLE (reason REFUSED, ' +
          'DNS, TLS or RESET), 504 UPSTREAM_TIMEOUT or 508 UPSTREAM_LOOP.',
        body: UpstreamBody,
        response: { 200: UpstreamResponse, ...errorResponses }
      }
    },
    async (request) => {
      const upstream = app.upstream.set({ url: request.body.url, routes: request.body.routes ?? null })
      return { ok: true as const, upstream: { url: upstream.url, routes: [...upstream.routes] } }
    }
  )
}
