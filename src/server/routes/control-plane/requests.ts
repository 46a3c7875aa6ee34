import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { DomainError } from '../../../core/errors/domain-error'
import { harOf } from '../../../core/inspector/har'
import { matchesFilter, sourceList } from '../../../core/inspector/request-filter'
import type { RequestFilter, RequestSummary } from '../../../core/inspector/types'
import { errorResponses } from '../../../shared/schemas/common'
import {
  EventStreamResponse,
  HarResponse,
  RequestEntryResponse,
  RequestIdParams,
  RequestListQuery,
  RequestListResponse,
  RequestsClearedResponse,
  RequestStreamHeaders,
  RequestStreamQuery
} from '../../../shared/schemas/requests'
import { ADMIN_TOKEN } from '../../auth/route-tokens'
import { eventStreams } from '../../http/event-stream'

const tags = ['Emulator']

/** Entries replayed to a reconnecting client (Last-Event-ID) before live ones. */
const MAX_REPLAY = 500

/** The request inspector (docs/api.md section 6): the redacted log of service API requests. */
export const requestControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const log = app.core.requests
  const openEventStream = eventStreams(app)

  app.get(
    '/requests',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Recorded service API requests, newest first, filtered and paged',
        description:
          'Every request to the service API (not the control plane, the OpenAPI document or the UI), redacted. Page with `limit` and `before` = the previous `nextBefore`.',
        querystring: RequestListQuery,
        response: {
          200: RequestListResponse,
          ...errorResponses
        }
      }
    },
    async (request) => {
      const { limit, before, source, ...filter } = request.query
      const page = log.list({ ...filter, source: sourceList(source), limit, before })
      return { ok: true as const, requests: page.entries, nextBefore: page.nextBefore }
    }
  )

  app.delete(
    '/requests',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Empty the request log',
        response: { 200: RequestsClearedResponse, ...errorResponses }
      }
    },
    async () => ({ ok: true as const, deleted: log.clear() })
  )

  app.get(
    '/requests/stream',
    {
      // A browser EventSource cannot send headers: the admin token may come as `?token=` here.
      config: { tokens: ADMIN_TOKEN, adminTokenInQuery: true },
      schema: {
        tags,
        summary: 'Live request log as server-sent events (event `request`, data: a request summary)',
        description:
          'text/event-stream. One `event: request` per recorded request, `id` = its id, `data` = the summary as JSON; a comment line every 15 s. ' +
          'The same filters as the list. Send the admin token as x-emulator-token or, for a browser EventSource, as `?token=`. ' +
          'A reconnecting client sending Last-Event-ID first gets what it missed (up to 500).',
        querystring: RequestStreamQuery,
        headers: RequestStreamHeaders,
        response: {
          200: EventStreamResponse,
          ...errorResponses
        }
      }
    },
    async (request, reply) => {
      // `token` is the admin token (checked by token-auth), not a filter.
      const { token: _adminToken, source, ...query } = request.query
      const filter: RequestFilter = { ...query, source: sourceList(source) }

      const sendEntry = (entry: RequestSummary, exchangeText = '') => {
        if (matchesFilter(entry, filter, exchangeText)) events.send(eventOf(entry))
      }
      let unsubscribe = () => {}
      const events = openEventStream(reply, () => unsubscribe())
      // The log writes on its own thread: the replay goes up to a fixed entry, and the subscription
      // starts right after it, so nothing written meanwhile is missed or sent twice.
      const lastEventId = Number(request.headers['last-event-id'])
      const upTo = log.newestId()
      if (Number.isInteger(lastEventId) && lastEventId >= 0) {
        const missed = (entry: RequestSummary) => entry.id > lastEventId && entry.id <= upTo
        if (filter.q) {
          // A text search reads the stored exchange: the log's own query finds what was missed.
          const found = log.list({ ...filter, limit: MAX_REPLAY, before: upTo + 1 }).entries.filter(missed)
          for (const entry of found.reverse()) events.send(eventOf(entry))
        } else {
          for (const entry of log.after(lastEventId, MAX_REPLAY).filter(missed)) sendEntry(entry)
        }
      }
      unsubscribe = log.subscribe(sendEntry, upTo)
      return events.reply
    }
  )

  app.get(
    '/requests/har',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'The recorded requests as a HAR 1.2 file, redacted as the inspector shows them',
        description:
          'The same filters as GET /_emulator/requests; the newest `limit` entries that match (default 50, at most 500), oldest first, with their request and response. Previews of keys, secrets and tokens only, never a value.',
        querystring: RequestListQuery,
        response: { 200: HarResponse, ...errorResponses }
      }
    },
    async (request, reply) => {
      const { limit, before, source, ...filter } = request.query
      const page = log.list({ ...filter, source: sourceList(source), limit, before })
      const entries = page.entries.map((entry) => log.get(entry.id)).filter((entry) => entry !== null)
      reply.header('content-disposition', 'attachment; filename="emulator-requests.har"')
      // The contract's `ok` beside HAR's `log`: HAR tools read `log` alone.
      return { ok: true as const, ...harOf(entries, { baseUrl: app.core.apiBaseUrl(), version: app.settings.version }) }
    }
  )

  app.get(
    '/requests/:id',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'One recorded request with its redacted request and response',
        params: RequestIdParams,
        response: { 200: RequestEntryResponse, ...errorResponses }
      }
    },
    async (request) => {
      const entry = log.get(request.params.id)
      if (!entry)
        throw new DomainError(
          'NOT_FOUND',
          `No recorded request has the id ${request.params.id} (the log keeps only the newest).`
        )
      return { ok: true as const, entry }
    }
  )
}

function eventOf(entry: RequestSummary): string {
  return `id: ${entry.id}\nevent: request\ndata: ${JSON.stringify(entry)}\n\n`
}
