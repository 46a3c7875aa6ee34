import { Type } from 'typebox'

import { FAULT_KINDS, FAULT_STAGES } from '../contract/faults'
import { ANSWERED_BY, AUTH_KINDS, REQUEST_PAGE_MAX, REQUEST_SOURCES, SURFACES } from '../contract/inspector'
import { Nullable } from './common'

export const SurfaceSchema = Type.Enum([...SURFACES], { description: 'The part of the service API, by path prefix.' })

export const AuthKindSchema = Type.Enum([...AUTH_KINDS], { description: 'How the request presented itself.' })

export const RequestSourceSchema = Type.Enum([...REQUEST_SOURCES], {
  description:
    "Who sent it: `client` (a plugin or script), `tester` (the UI's connection tester) or `ui` (the UI's own screens), as the `x-emulator-client` header says."
})

export const AnsweredBySchema = Type.Enum([...ANSWERED_BY], {
  description:
    'Who answered: the emulator, the upstream the request was forwarded to (docs/upstream.md), or a recording.'
})

const SOURCE_LIST = `(?:${REQUEST_SOURCES.join('|')})`

/** The request inspector's filters: shared by the list and the live stream. */
export const requestFilterProperties = {
  surface: Type.Optional(SurfaceSchema),
  status: Type.Optional(
    Type.String({
      pattern: '^(?:[0-9]{1,3}|[1-5][xX]{2})$',
      description: 'An exact status (`404`) or a class (`4xx`). 0 is a connection closed before any response.'
    })
  ),
  method: Type.Optional(Type.String({ pattern: '^[A-Za-z]{1,16}$', description: 'HTTP method, any case.' })),
  productId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The product the request named (path, body, query or App ID header).'
    })
  ),
  authKind: Type.Optional(AuthKindSchema),
  path: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'A substring of the (redacted) path and query, case-insensitive.'
    })
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'Text anywhere in the redacted exchange, case-insensitive: path and query, headers, request and response bodies (a license key, an instance id, an error code).'
    })
  ),
  source: Type.Optional(
    Type.String({
      pattern: `^${SOURCE_LIST}(?:,${SOURCE_LIST})*$`,
      description: "Only these sources, comma-separated (`client,tester` leaves out the UI's own calls)."
    })
  ),
  answeredBy: Type.Optional(AnsweredBySchema)
}

/**
 * A request log id as a client sends it: SQLite's rowid, never past what a JSON number holds
 * exactly, so a longer one is refused instead of rounded into another id.
 */
export const RequestLogId = (description?: string) =>
  Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, ...(description ? { description } : {}) })

export const RequestListQuery = Type.Object(
  {
    ...requestFilterProperties,
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: REQUEST_PAGE_MAX,
        description: `Page size (default 50, at most ${REQUEST_PAGE_MAX}).`
      })
    ),
    before: Type.Optional(RequestLogId('Only entries older than this id: the `nextBefore` of the previous page.'))
  },
  { additionalProperties: false }
)

export const RequestStreamQuery = Type.Object(
  {
    ...requestFilterProperties,
    token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 512,
        description: 'The admin token, for clients that cannot set the x-emulator-token header (browser EventSource).'
      })
    )
  },
  { additionalProperties: false }
)

export const RequestIdParams = Type.Object({ id: RequestLogId() }, { additionalProperties: false })

export const RequestSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({
      format: 'date-time',
      description:
        "When the request arrived: ISO 8601 instant (UTC) on the system clock, not the emulator clock, so it matches the caller's own logs."
    }),
    surface: SurfaceSchema,
    method: Type.String(),
    path: Type.String({ description: 'Path and query as received, redacted.' }),
    status: Type.Integer({ description: 'HTTP status; 0 when the connection closed before a response.' }),
    durationMs: Type.Number(),
    authKind: AuthKindSchema,
    productId: Nullable(Type.String()),
    source: RequestSourceSchema,
    errorCode: Nullable(
      Type.String({
        description:
          "The answer's error code (`error`), or the `code` of a validate answer that is not valid; null for a success."
      })
    ),
    fault: Nullable(
      Type.Object(
        {
          ruleId: Type.String(),
          kind: Type.Enum([...FAULT_KINDS]),
          label: Type.String({ description: 'The rule as it was when it fired (it may have changed or gone since).' }),
          stage: Type.Enum([...FAULT_STAGES], {
            description: 'before: the request was never answered (or forwarded); after: the upstream answered first.'
          })
        },
        { description: 'The fault rule that delayed, failed, rate-limited or dropped the request.' }
      )
    ),
    answeredBy: AnsweredBySchema,
    upstreamStatus: Nullable(
      Type.Integer({ description: "The upstream's status for a forwarded request; null when it did not answer." })
    ),
    upstreamMs: Nullable(
      Type.Number({ description: "The upstream's time to its answer's last byte, in ms; null when not forwarded." })
    )
  },
  { title: 'RequestSummary' }
)

export const HeaderMapSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
  description: 'Lower-case names. Credential headers, Authorization and cookies show previews only.'
})

export const BodyInfoSchema = Type.Object({
  kind: Type.Enum(['none', 'json', 'text', 'binary', 'stream']),
  bytes: Nullable(Type.Integer({ description: 'Size on the wire, when known.' })),
  truncated: Type.Boolean({ description: 'True when `body` is the first 16 KiB only (then a string, even for JSON).' }),
  note: Type.Optional(Type.String())
})

const BodyField = Type.Unknown({ description: 'The body, redacted: a JSON value, text, or null (see bodyInfo).' })

export const DecodedLicenseTokenSchema = Type.Object(
  {
    field: Type.String({
      description: 'Where the body held the token: a member name (`license_token`), or `outer.inner` one object down.'
    }),
    header: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The JOSE protected header (`alg`, `kid`, `typ: license+jwt`), redacted like a body.'
    }),
    claims: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The claims (`iss`, `aud`, `sub`, `iat`, `nbf`, `exp` in seconds, `nonce`, `product_id`, `instance_id`, `activation_id`, `license`), redacted like a body: a claim holding a key, secret or token shows a preview.'
    })
  },
  {
    title: 'DecodedLicenseToken',
    description:
      'A license token the body carried, decoded. Its signature, and so the compact token, is never stored or returned.'
  }
)

const LicenseTokensField = Type.Optional(
  Type.Array(DecodedLicenseTokenSchema, {
    description:
      'Present when the JSON body carried license tokens (`typ: license+jwt`): each decoded, in body order (at most 8). Absent for entries recorded before this existed.'
  })
)

export const RequestEntrySchema = Type.Object(
  {
    ...RequestSummarySchema.properties,
    request: Type.Object({
      headers: HeaderMapSchema,
      query: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())])),
      body: BodyField,
      bodyInfo: BodyInfoSchema,
      warnings: Type.Optional(
        Type.Array(Type.String(), {
          description:
            'What the server ignored in this request (unknown query parameters or body fields), one sentence each.'
        })
      ),
      licenseTokens: LicenseTokensField
    }),
    response: Type.Object({
      headers: HeaderMapSchema,
      body: BodyField,
      bodyInfo: BodyInfoSchema,
      licenseTokens: LicenseTokensField
    })
  },
  { title: 'RequestEntry' }
)

export const RequestStreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({ description: 'The id of the last event received: a reconnecting client first gets what it missed.' })
  )
})

/** The change feed (GET /_emulator/events): the admin token may come as `?token=` for a browser EventSource. */
export const ChangeFeedQuery = Type.Object(
  { token: Type.Optional(Type.String({ maxLength: 512, description: 'The admin token, for a browser EventSource.' })) },
  { additionalProperties: false }
)

export const RequestListResponse = Type.Object({
  ok: Type.Literal(true),
  requests: Type.Array(RequestSummarySchema),
  nextBefore: Nullable(Type.Integer())
})
export const RequestsClearedResponse = Type.Object({ ok: Type.Literal(true), deleted: Type.Integer() })
export const RequestEntryResponse = Type.Object({ ok: Type.Literal(true), entry: RequestEntrySchema })

/** The answer of the server-sent event routes (the request stream and the change feed), as the document shows it. */
export const EventStreamResponse = {
  description: 'An endless event stream.',
  content: { 'text/event-stream': { schema: Type.String() } }
}

/** GET /_emulator/requests/har: a HAR 1.2 document (`log`), with the contract's `ok` beside it. */
export const HarResponse = Type.Object(
  {
    ok: Type.Literal(true),
    log: Type.Object({
      version: Type.Literal('1.2'),
      creator: Type.Object({ name: Type.String(), version: Type.String() }),
      entries: Type.Array(Type.Record(Type.String(), Type.Unknown()))
    })
  },
  { title: 'HarDocument' }
)
