import { Type } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { DomainError } from '../../../core/errors/domain-error'
import { errorResponses } from '../../../shared/schemas/common'
import { ClockResponse } from '../../../shared/schemas/scenarios'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

/** Years either way: far enough for any expiry test, near enough to stay a valid date. */
const MAX_OFFSET_S = 100 * 365 * 24 * 60 * 60

export const clockControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { clock } = app.core
  const describe = () => ({
    ok: true as const,
    now: clock.nowIso(),
    offsetS: clock.offsetMs() / 1000,
    systemNow: new Date().toISOString()
  })

  app.get(
    '/clock',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: { tags: ['Emulator'], summary: "The emulator's now and its offset", response: { 200: ClockResponse, ...errorResponses } }
    },
    async () => describe()
  )

  app.put(
    '/clock',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags: ['Emulator'],
        summary: 'Move the emulator clock: { offsetS } from the system time, { now } absolute, or { advanceS } from where it is',
        body: Type.Object(
          {
            offsetS: Type.Optional(Type.Number({ minimum: -MAX_OFFSET_S, maximum: MAX_OFFSET_S })),
            now: Type.Optional(Type.String({ format: 'date-time' })),
            advanceS: Type.Optional(Type.Number({ minimum: -MAX_OFFSET_S, maximum: MAX_OFFSET_S }))
          },
          { additionalProperties: false }
        ),
        response: { 200: ClockResponse, ...errorResponses }
      }
    },
    async (request) => {
      const { offsetS, now, advanceS } = request.body
      const given = [offsetS, now, advanceS].filter((value) => value !== undefined).length
      if (given !== 1) throw new DomainError('VALIDATION_ERROR', 'Send exactly one of offsetS, now or advanceS.')
      if (offsetS !== undefined) clock.setOffsetMs(offsetS * 1000)
      else if (advanceS !== undefined) clock.setOffsetMs(clock.offsetMs() + advanceS * 1000)
      else {
        const instant = new Date(now as string)
        if (Number.isNaN(instant.getTime()) || Math.abs(instant.getTime() - Date.now()) > MAX_OFFSET_S * 1000) {
          throw new DomainError('VALIDATION_ERROR', 'now must be a date-time within 100 years of the system time.')
        }
        clock.setNow(instant)
      }
      if (Math.abs(clock.offsetMs()) > MAX_OFFSET_S * 1000) clock.setOffsetMs(Math.sign(clock.offsetMs()) * MAX_OFFSET_S * 1000)
      return describe()
    }
  )
}
