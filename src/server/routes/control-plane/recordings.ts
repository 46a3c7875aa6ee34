import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { scenarioFromRecording } from '../../../core/recordings/recording-scenario'
import { errorResponses } from '../../../shared/schemas/common'
import {
  RecordingDocumentResponse,
  RecordingListResponse,
  RecordingParams,
  RecordingRemovedResponse,
  RecordingResponse,
  RecordingStartBody,
  ReplayBody,
  ReplayResponse,
  ScenarioFromRecordingBody,
  ScenarioFromRecordingResponse
} from '../../../shared/schemas/recordings'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

const tags = ['Emulator']
/** A recording of a long session can be large; replay accepts documents up to 256 MiB, as scenario import does. */
const REPLAY_BODY_LIMIT = 256 * 1024 * 1024

/** Recordings of forwarded traffic, replay and scenarios made from them (docs/api.md "Recordings and replay"). */
export const recordingControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { recordings } = app.core

  app.post(
    '/recordings',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Start recording forwarded exchanges (a running recording stops first)',
        description:
          "While it runs, every exchange forwarded to the upstream is kept with its secrets replaced by fingerprints (HMAC-SHA256 under the recording's own salt).",
        body: RecordingStartBody,
        response: { 201: RecordingResponse, ...errorResponses }
      }
    },
    async (request, reply) => {
      const recording = recordings.start({
        name: request.body.name ?? undefined,
        upstreamUrl: app.hasDecorator('upstream') ? app.upstream.current().url : null
      })
      return reply.code(201).send({ ok: true as const, recording })
    }
  )

  app.get(
    '/recordings',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'List the recordings, newest first',
        response: { 200: RecordingListResponse, ...errorResponses }
      }
    },
    async () => ({ ok: true as const, recordings: recordings.list() })
  )

  app.get(
    '/recordings/:id',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'A recording document (resources/recording.schema.json): exchanges in order, secrets as fingerprints',
        params: RecordingParams,
        response: { 200: RecordingDocumentResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, recording: recordings.document(request.params.id) })
  )

  app.delete(
    '/recordings/:id',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Delete a recording',
        params: RecordingParams,
        response: { 200: RecordingRemovedResponse, ...errorResponses }
      }
    },
    async (request) => {
      recordings.remove(request.params.id)
      return { ok: true as const, removed: true as const }
    }
  )

  app.post(
    '/recordings/:id/stop',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags,
        summary: 'Stop a recording (stopping a stopped one changes nothing)',
        params: RecordingParams,
        response: { 200: RecordingResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, recording: recordings.stop(request.params.id) })
  )

  app.post(
    '/recordings/:id/scenario',
    {
      config: { tokens: ADMIN_TOKEN, storage: 'reads' },
      schema: {
        tags,
        summary: 'Make a scenario document from what a recording reveals',
        description:
          'The scenario imports into a fresh emulator (PUT /_emulator/state). The plugin credential is carried only when ' +
          "its key and secret are given and match the recording's fingerprints; the scenario then holds their SHA-256 hashes, " +
          'never the plain values. `notes` names, field by field, what could not be known and what was assumed.',
        params: RecordingParams,
        body: ScenarioFromRecordingBody,
        response: { 200: ScenarioFromRecordingResponse, ...errorResponses }
      }
    },
    async (request) => {
      const document = recordings.document(request.params.id)
      const made = scenarioFromRecording(document, {
        fingerprints: recordings.fingerprinterFor(document.fingerprints.salt),
        pluginKey: request.body.pluginKey ?? null,
        pluginSecret: request.body.pluginSecret ?? null
      })
      return { ok: true as const, ...made }
    }
  )

  app.get(
    '/replay',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: { tags, summary: 'The replay in force', response: { 200: ReplayResponse, ...errorResponses } }
    },
    async () => ({ ok: true as const, replay: app.replay.state() })
  )

  app.put(
    '/replay',
    {
      config: { tokens: ADMIN_TOKEN, storage: 'memory' },
      bodyLimit: REPLAY_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Put a recording in force (null: stop replaying)',
        description:
          'A service request that matches a recorded one (method, path, query, credentials by fingerprint, body as JSON) ' +
          'gets the recorded answers in order, the last repeating, with `x-emulator-source: recording`. Unmatched requests ' +
          'are answered by the emulator, or with `strict` by 404 NO_RECORDED_MATCH naming the closest recorded request ' +
          "and the first field that differs. `resign` re-signs recorded license tokens with the emulator's key at its clock.",
        body: ReplayBody,
        response: { 200: ReplayResponse, ...errorResponses }
      }
    },
    async (request) => {
      const { recording, strict, resign } = request.body
      const replay = app.replay.set(recording ?? null, {
        strict: strict ?? false,
        resign: resign ?? false
      })
      return { ok: true as const, replay }
    }
  )
}
