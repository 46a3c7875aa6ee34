import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { clockState, moveClock } from '../../../core/clock/clock-control'
import { errorResponses } from '../../../shared/schemas/common'
import { ClockMoveBody, ClockResponse } from '../../../shared/schemas/scenarios'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

export const clockControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { clock } = app.core

  app.get(
    '/clock',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags: ['Emulator'],
        summary: "The emulator's now and its offset",
        response: { 200: ClockResponse, ...errorResponses }
      }
    },
    async () => ({ ok: true as const, ...clockState(clock) })
  )

  app.put(
    '/clock',
    {
      config: { tokens: ADMIN_TOKEN, storage: 'memory' },
      schema: {
        tags: ['Emulator'],
        summary:
          'Move the emulator clock: { offsetS } from the system time, { now } absolute, or { advanceS } from where it is',
        body: ClockMoveBody,
        response: { 200: ClockResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, ...moveClock(clock, request.body) })
  )
}
