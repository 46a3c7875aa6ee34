import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { SCENARIO_FORMAT } from '../../../core/scenarios/scenario-schema'
import { documentIn, SCENARIO_ANSWER_MEMBERS } from '../../../shared/contract/saved-documents'
import { errorResponses } from '../../../shared/schemas/common'
import {
  PresetListResponse,
  PresetLoadResponse,
  PresetParams,
  ResetResponse,
  StateExportQuery,
  StateExportResponse,
  StateImportBody,
  StateImportResponse,
  StatePreviewResponse
} from '../../../shared/schemas/scenarios'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

const tags = ['Emulator']
/** Scenario documents can be large (a whole customer base); this route alone accepts up to 256 MiB. */
const STATE_BODY_LIMIT = 256 * 1024 * 1024

export const stateControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { state } = app.core

  app.get(
    '/state',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Export the whole state as one scenario document (hashes and ciphertext, never plain secrets)',
        description:
          'Data, credential audit trail, connection records, clock offset, fault rules and runtime settings. ' +
          '`includeRequests=1` adds the (redacted) request log.',
        querystring: StateExportQuery,
        response: { 200: StateExportResponse, ...errorResponses }
      }
    },
    async (request) => {
      const flag = request.query.includeRequests
      return { ok: true as const, state: state.export({ includeRequests: flag === '1' || flag === 'true' }) }
    }
  )

  app.put(
    '/state',
    {
      config: { tokens: ADMIN_TOKEN },
      bodyLimit: STATE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Import a scenario document, replacing the state atomically (400 names the path of the first error)',
        // The request log, the clock and the fault rules are replaced too; settings only when the document has them.
        description: `The body is the scenario document itself, or an answer holding one: { "state": <document> } as GET answers, { "scenario": <document> } as POST /_emulator/recordings/:id/scenario answers. Schema: resources/scenario.schema.json (format "${SCENARIO_FORMAT}").`,
        body: StateImportBody,
        response: { 200: StateImportResponse, ...errorResponses }
      }
    },
    async (request) => {
      return { ok: true as const, imported: state.import(documentIn(request.body, SCENARIO_ANSWER_MEMBERS)) }
    }
  )

  app.post(
    '/state/preview',
    {
      config: { tokens: ADMIN_TOKEN, storage: 'reads' },
      bodyLimit: STATE_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'What a scenario document holds (counts, clock, fault rules, settings), checked as an import checks it; nothing changes',
        description:
          'The same body as PUT /_emulator/state. A document this refuses, the import refuses with the same 400; one it accepts imports unless the database refuses a row (a repeated unique value).',
        body: StateImportBody,
        response: { 200: StatePreviewResponse, ...errorResponses }
      }
    },
    async (request) => {
      return { ok: true as const, preview: state.preview(documentIn(request.body, SCENARIO_ANSWER_MEMBERS)) }
    }
  )

  app.post(
    '/reset',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary:
          'Empty all data, the request log, the fault rules and the clock offset, without a restart (signing keys and settings stay)',
        response: { 200: ResetResponse, ...errorResponses }
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
          200: PresetListResponse,
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
        summary:
          'Load a built-in scenario, replacing the state as an import does (request log emptied, clock back to the system time, no fault rules)',
        params: PresetParams,
        response: { 200: PresetLoadResponse, ...errorResponses }
      }
    },
    async (request) => ({
      ok: true as const,
      preset: request.params.name,
      imported: state.loadPreset(request.params.name)
    })
  )
}
