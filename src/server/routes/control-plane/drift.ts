import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { driftMarkdown } from '../../../core/drift/drift-markdown'
import { DomainError } from '../../../core/errors/domain-error'
import { errorResponses } from '../../../shared/schemas/common'
import {
  DriftClearedResponse,
  DriftEntryParams,
  DriftEntryResponse,
  DriftFlaggedResponse,
  DriftMarkdownResponse,
  DriftReportQuery,
  DriftReportResponse
} from '../../../shared/schemas/drift'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

const tags = ['Emulator']

/** The drift report (docs/upstream.md, "The drift report"): where the upstream's answers depart from the contract. */
export const driftControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/drift',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: "Where the upstream's answers depart from the emulator's contract, per operation",
        description:
          'Each forwarded answer is checked against /openapi.json for its operation and status (every object read as closed) and its license token against the upstream JWKS. ' +
          'Findings are grouped by kind, location and path, with count, first and last seen and one redacted example; `coverage` counts the documented service operations seen. ' +
          '`?format=markdown` answers the same as a text/markdown report.',
        querystring: DriftReportQuery,
        response: {
          200: {
            description: 'The report: JSON, or Markdown with `?format=markdown`.',
            content: {
              'application/json': { schema: DriftReportResponse },
              'text/markdown': DriftMarkdownResponse.content['text/markdown']
            }
          },
          ...errorResponses
        }
      }
    },
    async (request, reply) => {
      await app.drift.settled()
      await app.drift.contractReady()
      const report = app.drift.log.report()
      if (request.query.format === 'markdown') {
        const text = driftMarkdown(report, {
          upstreamUrl: app.upstream.current().url,
          generatedAt: new Date().toISOString(),
          emulatorVersion: app.settings.version
        })
        return reply
          .type('text/markdown; charset=utf-8')
          .serializer((payload: string) => payload)
          .send(text)
      }
      return { ok: true as const, ...report }
    }
  )

  app.delete(
    '/drift',
    {
      config: { tokens: ADMIN_TOKEN, storage: 'memory' },
      schema: {
        tags,
        summary: 'Clear the drift report',
        response: { 200: DriftClearedResponse, ...errorResponses }
      }
    },
    async () => {
      await app.drift.settled()
      app.drift.log.clear()
      return { ok: true as const, cleared: true as const }
    }
  )

  app.get(
    '/drift/requests',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'The forwarded exchanges whose answers showed drift (for marking them in the request inspector)',
        response: { 200: DriftFlaggedResponse, ...errorResponses }
      }
    },
    async () => {
      await app.drift.settled()
      return { ok: true as const, exchanges: app.drift.log.flagged() }
    }
  )

  app.get(
    '/drift/requests/:id',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'The drift findings of one request inspector entry',
        params: DriftEntryParams,
        response: { 200: DriftEntryResponse, ...errorResponses }
      }
    },
    async (request) => {
      const entry = app.core.requests.get(request.params.id)
      if (!entry)
        throw new DomainError(
          'NOT_FOUND',
          `No recorded request has the id ${request.params.id} (the log keeps only the newest).`
        )
      await app.drift.settled()
      const drift = app.drift.log.ofEntry({
        method: entry.method,
        path: entry.path,
        status: entry.status,
        at: entry.at,
        answeredBy: entry.answeredBy
      })
      return { ok: true as const, drift }
    }
  )
}
