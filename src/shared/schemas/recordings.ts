import { Type } from 'typebox'

import { Nullable, Ok, Timestamp } from './common'

/**
 * Recordings of forwarded traffic and their replay (docs/api.md "Recordings and replay",
 * docs/upstream.md). The document's JSON Schema ships as resources/recording.schema.json.
 */

const Headers = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
  description: 'Lower-case names; credentials stand as fingerprints (`fp.<kind>.<hex>`).'
})

export const RecordedBodySchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('none') }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('json'), json: Type.Unknown() }, { additionalProperties: false }),
    Type.Object({ kind: Type.Literal('text'), text: Type.String() }, { additionalProperties: false }),
    Type.Object(
      {
        kind: Type.Literal('digest'),
        bytes: Type.Integer({ minimum: 0 }),
        sha256: Nullable(Type.String({ pattern: '^[0-9a-f]{64}$' })),
        note: Type.Optional(Type.String())
      },
      { additionalProperties: false, description: 'A large or binary body: only its size and SHA-256 are kept.' }
    )
  ],
  { description: 'Decompressed: the encoding headers were made true of it.' }
)

export const RecordedExchangeSchema = Type.Object(
  {
    seq: Type.Integer({ minimum: 1 }),
    startedAt: Type.String(),
    durationMs: Type.Number({ minimum: 0 }),
    upstreamUrl: Type.Optional(
      Type.String({
        description:
          "Where this exchange was forwarded, present only when that is not the recording's upstreamUrl: the upstream was changed while the recording ran."
      })
    ),
    request: Type.Object(
      {
        method: Type.String({ minLength: 1, maxLength: 20 }),
        path: Type.String({ minLength: 1 }),
        query: Type.String({ description: "The raw query string without '?', secrets fingerprinted." }),
        headers: Headers,
        body: RecordedBodySchema
      },
      { additionalProperties: false }
    ),
    response: Type.Object(
      { status: Type.Integer({ minimum: 100, maximum: 599 }), headers: Headers, body: RecordedBodySchema },
      { additionalProperties: false }
    ),
    licenseTokens: Type.Optional(
      Type.Array(
        Type.Object(
          {
            fingerprint: Type.String(),
            header: Type.Record(Type.String(), Type.Unknown()),
            claims: Type.Record(Type.String(), Type.Unknown())
          },
          { additionalProperties: false }
        ),
        { description: 'License tokens in the answer: header and claims, never the signature (for `resign`).' }
      )
    )
  },
  { additionalProperties: false }
)

export const RecordingDocumentSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    format: Type.Literal('plugin-license-emulator/recording'),
    version: Type.Literal(1),
    id: Type.String({ maxLength: 200 }),
    name: Type.String({ maxLength: 200 }),
    startedAt: Type.String(),
    stoppedAt: Nullable(Type.String()),
    upstreamUrl: Nullable(Type.String()),
    fingerprints: Type.Object(
      {
        algorithm: Type.Literal('HMAC-SHA256'),
        salt: Type.String({ pattern: '^[0-9a-f]{64}$', description: "The recording's own random salt (hex)." })
      },
      { additionalProperties: false }
    ),
    refused: Type.Integer({
      minimum: 0,
      description: "Exchanges left out because, fingerprinted, they still held a value with a secret's shape."
    }),
    lost: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'Exchanges observed while storage refused writes (a full disk, a locked database) that could not be kept: ' +
          'more than memory holds, or still waiting when the emulator stopped. Absent in documents made before it was counted.'
      })
    ),
    exchanges: Type.Array(RecordedExchangeSchema, { description: 'In the order they happened.' })
  },
  { additionalProperties: false, title: 'Plugin License Emulator recording' }
)

/** The JSON Schema as shipped in resources/recording.schema.json (the schema above, with its $id). */
export function recordingJsonSchema(): string {
  const shipped = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://plugin-license-emulator.local/recording.schema.json',
    ...RecordingDocumentSchema
  }
  return `${JSON.stringify(shipped, null, 2)}\n`
}

export const RecordingSummarySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  startedAt: Timestamp,
  stoppedAt: Nullable(Timestamp),
  upstreamUrl: Nullable(Type.String()),
  exchanges: Type.Integer({ minimum: 0 }),
  refused: Type.Integer({ minimum: 0 }),
  lost: Type.Integer({ minimum: 0 })
})

export const RecordingStartBody = Type.Object(
  { name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))) },
  { additionalProperties: false }
)
export const RecordingResponse = Ok(Type.Object({ recording: RecordingSummarySchema }))
export const RecordingListResponse = Ok(Type.Object({ recordings: Type.Array(RecordingSummarySchema) }))
export const RecordingDocumentResponse = Ok(Type.Object({ recording: RecordingDocumentSchema }))
export const RecordingRemovedResponse = Ok(Type.Object({ removed: Type.Literal(true) }))
export const RecordingParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false }
)

export const ReplayBody = Type.Object(
  {
    recording: Type.Union([RecordingDocumentSchema, Type.Null()], {
      description: 'A recording document (as GET /_emulator/recordings/:id answers it), or null to stop replaying.'
    }),
    strict: Type.Optional(Nullable(Type.Boolean({ description: 'Unmatched requests answer 404 NO_RECORDED_MATCH.' }))),
    resign: Type.Optional(
      Nullable(Type.Boolean({ description: "Re-sign recorded license tokens with the emulator's key, at its clock." }))
    )
  },
  { additionalProperties: false }
)

export const ReplayStateSchema = Type.Object({
  active: Type.Boolean(),
  recording: Nullable(Type.Object({ id: Type.String(), name: Type.String(), exchanges: Type.Integer({ minimum: 0 }) })),
  strict: Type.Boolean(),
  resign: Type.Boolean()
})
export const ReplayResponse = Ok(Type.Object({ replay: ReplayStateSchema }))

export const ScenarioFromRecordingBody = Type.Object(
  {
    pluginKey: Type.Optional(
      Nullable(
        Type.String({ maxLength: 400, description: "The plugin's key: checked against the recording, never kept." })
      )
    ),
    pluginSecret: Type.Optional(
      Nullable(
        Type.String({ maxLength: 400, description: "The plugin's secret: checked against the recording, never kept." })
      )
    )
  },
  { additionalProperties: false }
)
export const ScenarioFromRecordingResponse = Ok(
  Type.Object({
    scenario: Type.Unknown({ description: 'A scenario document (resources/scenario.schema.json).' }),
    notes: Type.Array(Type.Object({ field: Type.String(), note: Type.String() }), {
      description: 'What could not be known from the recording, or was assumed, field by field.'
    })
  })
)
