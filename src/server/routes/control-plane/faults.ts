import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { errorResponses } from '../../../shared/schemas/common'
import { IdParams } from '../../../shared/schemas/control-plane'
import { FaultRulesBody, FaultRulesRemovedResponse, FaultRulesResponse } from '../../../shared/schemas/faults'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

const tags = ['Emulator']

/**
 * Fault rules for the service API (docs/api.md section 6). The rules live in memory only:
 * a restart or a control-plane reset clears them. Every route answers the rules in force.
 */
export const faultControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { faults } = app.core

  app.put(
    '/faults',
    {
      config: { tokens: ADMIN_TOKEN, storage: 'memory' },
      schema: {
        tags,
        summary: 'Replace every fault rule (all or nothing)',
        description:
          'Rules apply to the service API only, never to /_emulator, /openapi.json or the UI at /. ' +
          'For each request the first rule whose method and route match decides, and fires with its probability; ' +
          'when it does not fire the request is served normally.',
        body: FaultRulesBody,
        response: { 200: FaultRulesResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, rules: faults.replace(request.body.rules) })
  )

  app.get(
    '/faults',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'List the fault rules, in the order they are checked',
        response: { 200: FaultRulesResponse, ...errorResponses }
      }
    },
    async () => ({ ok: true as const, rules: faults.list() })
  )

  app.delete(
    '/faults',
    {
      config: { tokens: ADMIN_TOKEN, storage: 'memory' },
      schema: {
        tags,
        summary: 'Remove every fault rule',
        response: { 200: FaultRulesRemovedResponse, ...errorResponses }
      }
    },
    async () => {
      const removed = faults.list().length
      faults.clear()
      return { ok: true as const, removed, rules: [] }
    }
  )

  app.delete(
    '/faults/:id',
    {
      config: { tokens: ADMIN_TOKEN, storage: 'memory' },
      schema: {
        tags,
        summary: 'Remove one fault rule (404 FAULT_RULE_NOT_FOUND when no rule has that id)',
        params: IdParams,
        response: { 200: FaultRulesRemovedResponse, ...errorResponses }
      }
    },
    async (request) => {
      faults.remove(request.params.id)
      return { ok: true as const, removed: 1, rules: faults.list() }
    }
  )
}
