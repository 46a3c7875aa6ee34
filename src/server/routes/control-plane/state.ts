import { Type } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../../shared/schemas/common'
import { PresetSchema } from '../../../shared/schemas/scenarios'
import { SCENARIO_FORMAT } from '../../../core/scenarios/scenario-schema'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

const tags = ['Emulator']
/** Scenario documents can be large (a whole customer base); this route alone accepts up to 256 MiB. */
const STATE_BODY_LIMIT = 256 * 1024 * 1024

const Counts = Type.Record(Type.String(), Type.Integer())

export const stateControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { state } = app.core

  app.get(
    '/state',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Export the whole state as one scenario document (hashes and ciphertext, never plain secrets)',
        response: { 200: Type.Object({ ok: Type.Literal(true), state: Type.Unknown() }), ...errorResponses }
      }
    },
    async () => ({ ok: true as const, state: state.export() })
  )

  app.put(
    '/state',
    {
      config: { tokens: ADMIN_TOKEN },
      bodyLimit: STATE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Import a scenario document, replacing the state atomically (400 names the path of the first error)',
        description: `The body is the scenario document itself, or { "state": <document> } as GET answers. Schema: resources/scenario.schema.json (format "${SCENARIO_FORMAT}").`,
        body: Type.Unknown(),
        response: { 200: Type.Object({ ok: Type.Literal(true), imported: Counts }), ...errorResponses }
      }
    },
    async (request) => {
      const body = request.body as { state?: unknown; format?: unknown } | null
      const document = body && typeof body === 'object' && body.format === undefined && 'state' in body ? body.state : body
      return { ok: true as const, imported: state.import(document) }
    }
  )

  app.post(
    '/reset',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Empty all data, fault rules and the clock offset, without a restart (signing keys and settings stay)',
        response: { 200: Type.Object({ ok: Type.Literal(true), reset: Type.Literal(true) }), ...errorResponses }
      }
    },
    async () => {
      state.reset()
      return { ok: true as const, reset: true as const }
    }
  )

  app.get(
    '/presets',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'The built-in scenarios',
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            presets: Type.Array(PresetSchema)
          }),
          ...errorResponses
        }
      }
    },
    async () => ({ ok: true as const, presets: state.presets() })
  )

  app.post(
    '/presets/:name',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Load a built-in scenario, replacing the state',
        params: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
        response: { 200: Type.Object({ ok: Type.Literal(true), preset: Type.String(), imported: Counts }), ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, preset: request.params.name, imported: state.loadPreset(request.params.name) })
  )
}
