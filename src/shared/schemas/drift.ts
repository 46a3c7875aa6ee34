import { Type } from 'typebox'

import { DRIFT_FINDING_KINDS, DRIFT_LOCATIONS, DRIFT_SEVERITIES } from '../contract/drift'
import { Nullable } from './common'
import { RequestLogId } from './requests'

const At = Type.String({ format: 'date-time', description: 'ISO 8601 instant (UTC), when the request arrived.' })

export const DriftExampleSchema = Type.Object(
  {
    requestId: Type.String({ description: "The forwarded request's id (the server's log line names it)." }),
    status: Type.Integer({ description: "The upstream's status." }),
    value: Type.Unknown({
      description:
        'The offending value, redacted like the request inspector (credentials previewed or hidden); null when there is none (a field absent, a signature).'
    })
  },
  { additionalProperties: false, description: 'The first exchange that showed the finding.' }
)

const findingFields = {
  kind: Type.Enum([...DRIFT_FINDING_KINDS], { description: 'What departs from the contract (docs/upstream.md).' }),
  severity: Type.Enum([...DRIFT_SEVERITIES], {
    description: 'error: a plugin built against the emulator may break; warning: it should not.'
  }),
  location: Type.Enum([...DRIFT_LOCATIONS]),
  path: Type.String({
    description: 'A JSON path (`$.license.status`, `$.activations[].id`), a header name, or the status.'
  }),
  expected: Type.String({ description: 'What the emulator documents there.' }),
  seen: Type.String({
    description: 'What the upstream answered (a type, a status, a description; never a credential).'
  })
}

export const DriftFindingSchema = Type.Object(
  {
    ...findingFields,
    count: Type.Integer({ minimum: 1, description: 'Exchanges that showed it.' }),
    firstAt: At,
    lastAt: At,
    example: DriftExampleSchema
  },
  { additionalProperties: false }
)

export const DriftOperationSchema = Type.Object(
  {
    operationId: Nullable(
      Type.String({
        description: "The operation's id in /openapi.json; null for a path the emulator does not document."
      })
    ),
    method: Type.String(),
    path: Type.String({
      description: 'The path template (`/api/downloads/:fileId`), or the path itself when undocumented.'
    }),
    calls: Type.Integer({ minimum: 0, description: 'Upstream answers checked.' }),
    findings: Type.Array(DriftFindingSchema, { description: 'Grouped by kind, location and path; errors first.' })
  },
  { additionalProperties: false }
)

export const DriftCoverageSchema = Type.Object(
  {
    seen: Type.Integer({ minimum: 0, description: 'Documented service operations the upstream has answered.' }),
    documented: Type.Integer({ minimum: 0, description: 'Service operations /openapi.json documents.' }),
    unseen: Type.Array(Type.String(), { description: 'The operationIds not seen yet.' })
  },
  { additionalProperties: false }
)

export const DriftReportResponse = Type.Object(
  {
    ok: Type.Literal(true),
    coverage: DriftCoverageSchema,
    operations: Type.Array(DriftOperationSchema)
  },
  { additionalProperties: false }
)

export const DriftReportQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Enum(['json', 'markdown'], {
        description: '`markdown`: the same report as text/markdown, to attach to a bug or send to the platform.'
      })
    )
  },
  { additionalProperties: false }
)

export const DriftMarkdownResponse = {
  description: 'The report as Markdown (`?format=markdown`).',
  content: { 'text/markdown': { schema: Type.String() } }
}

export const DriftClearedResponse = Type.Object({ ok: Type.Literal(true), cleared: Type.Literal(true) })

const markFields = {
  method: Type.String(),
  path: Type.String({ description: 'The redacted path and query, as the request inspector shows it.' }),
  status: Type.Integer(),
  at: At
}

export const DriftFlaggedResponse = Type.Object(
  {
    ok: Type.Literal(true),
    exchanges: Type.Array(
      Type.Object(
        {
          requestId: Type.String(),
          ...markFields,
          findings: Type.Integer({ minimum: 1 }),
          errors: Type.Integer({ minimum: 0 })
        },
        { additionalProperties: false }
      ),
      { description: 'The checked exchanges with findings (the most recent 1,000), oldest first.' }
    )
  },
  { additionalProperties: false }
)

export const DriftEntryParams = Type.Object(
  { id: RequestLogId("The request inspector entry's id.") },
  { additionalProperties: false }
)

export const DriftEntryResponse = Type.Object(
  {
    ok: Type.Literal(true),
    drift: Nullable(
      Type.Object(
        {
          requestId: Type.String(),
          operationId: Nullable(Type.String()),
          ...markFields,
          findings: Type.Array(
            Type.Object({ ...findingFields, example: DriftExampleSchema }, { additionalProperties: false })
          )
        },
        { additionalProperties: false }
      )
    )
  },
  { additionalProperties: false, description: 'null: the entry was not forwarded, or its answer showed no drift.' }
)
