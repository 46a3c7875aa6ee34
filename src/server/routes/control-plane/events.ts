import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import type { ChangeBatch } from '../../../shared/contract/changes'
import { errorResponses } from '../../../shared/schemas/common'
import { ChangeFeedQuery, EventStreamResponse } from '../../../shared/schemas/requests'
import { ADMIN_TOKEN } from '../../auth/route-tokens'
import { eventStreams } from '../../http/event-stream'

/**
 * The change feed (docs/api.md section 6): every change to the emulator's state, whoever made
 * it, as server-sent events. The UI follows it so nothing a script does needs a reload.
 */
export const eventControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { changes } = app.core
  const openEventStream = eventStreams(app)

  app.get(
    '/events',
    {
      // A browser EventSource cannot send headers: the admin token may come as `?token=` here.
      config: { tokens: ADMIN_TOKEN, adminTokenInQuery: true },
      schema: {
        tags: ['Emulator'],
        summary: 'Changes to the state as server-sent events (event `change`, data: { seq, changes })',
        description:
          'text/event-stream. One `event: change` per batch of changes made within 50 ms, `data` = { seq, changes }. A change is ' +
          '{ kind: "entity", entity, id } (id null when many or unknown), { kind: "everything", cause: "reset" | "preset" | "import" }, ' +
          '{ kind: "clock" }, { kind: "faults" } or { kind: "settings" }. Whoever made the change: the UI, the control plane, the CLI, ' +
          'a licensing call. Send the admin token as x-emulator-token or, for a browser EventSource, as `?token=`.',
        querystring: ChangeFeedQuery,
        response: {
          200: EventStreamResponse,
          ...errorResponses
        }
      }
    },
    async (_request, reply) => {
      let unsubscribe = () => {}
      const events = openEventStream(reply, () => unsubscribe())
      unsubscribe = changes.subscribe((batch: ChangeBatch) =>
        events.send(`event: change\ndata: ${JSON.stringify(batch)}\n\n`)
      )
      return events.reply
    }
  )
}
