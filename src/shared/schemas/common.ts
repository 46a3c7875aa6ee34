import { Type } from 'typebox'
import type { TObject, TProperties, TSchema } from 'typebox'

/** `T | null`, as JSON Schema (OpenAPI 3.1). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** A success body (docs/api.md section 1): `ok: true` beside the fields of `schema`, which stays usable on its own. */
export const Ok = <P extends TProperties>(schema: TObject<P>) =>
  Type.Object({ ok: Type.Literal(true), ...schema.properties })

export const Timestamp = Type.String({
  format: 'date-time',
  description: 'ISO 8601 instant (UTC), on the emulator clock.'
})

/** An id sent by a client (a path segment, a filter, a device): empty would match nothing, so it is refused. */
export const Id = Type.String({ minLength: 1, maxLength: 200 })

/** A token sent as a field (a library, download or claim token). */
export const TokenField = Type.String({ maxLength: 4096 })

/** An e-mail address, as loosely as the platform takes it. */
export const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' })

/** A body that must be empty (an action that takes no input). */
export const EmptyBody = Type.Object({}, { additionalProperties: false })

/** The error envelope of docs/api.md section 1. Details are extra top-level keys. */
export const ErrorResponse = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.String({ description: 'UPPER_SNAKE error code.' }),
    message: Type.String({ description: 'One sentence for a person.' }),
    // The detail keys an answer may carry beside them (docs/api.md section 1); each route's
    // document names which of its errors carry which.
    details: Type.Optional(
      Type.Array(
        Type.Object(
          {
            location: Type.Optional(Type.String({ description: 'body, query, params or headers.' })),
            path: Type.Optional(Type.String({ description: 'JSON pointer of the value.' })),
            problem: Type.Optional(Type.String()),
            field: Type.Optional(Type.String({ description: 'The unknown field, when that is the problem.' }))
          },
          { additionalProperties: true }
        ),
        { description: 'VALIDATION_ERROR: each problem found.' }
      )
    ),
    reason: Type.Optional(
      Type.String({
        description: 'Why, as a code: PLUGIN_CONNECTION_FAILED and LIBRARY_CLAIM_FAILED (hidden by --strict).'
      })
    ),
    verified: Type.Optional(Type.Literal(false, { description: 'PLUGIN_CONNECTION_FAILED.' })),
    requestId: Type.Optional(
      Type.String({ description: 'INTERNAL: the id the log files this defect under, to quote in a report.' })
    ),
    replacement: Type.Optional(Type.String({ description: 'LEGACY_PLUGIN_KEYS_RETIRED: the route to use instead.' })),
    recovery: Type.Optional(
      Type.Object(
        {
          rotateKey: Type.Optional(Type.String()),
          rotateSecret: Type.Optional(Type.String()),
          create: Type.Optional(Type.String()),
          ensure: Type.Optional(Type.String())
        },
        {
          additionalProperties: true,
          description:
            'The routes that get you going again: rotateKey and rotateSecret (PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE), create and ensure (PRODUCT_CREDENTIAL_NOT_FOUND after a revoke).'
        }
      )
    ),
    retryAfter: Type.Optional(
      Type.Number({ minimum: 0, description: 'RATE_LIMITED: seconds to wait, as the Retry-After header says.' })
    ),
    state: Type.Optional(
      Type.String({
        description: "SUBSCRIPTION_STATE_CONFLICT: the subscription's state; ORDER_STATE_CONFLICT: the order's."
      })
    ),
    path: Type.Optional(
      Type.String({ description: 'Scenario import VALIDATION_ERROR: the JSON pointer of the first problem.' })
    ),
    value: Type.Optional(Type.Unknown({ description: 'Scenario import VALIDATION_ERROR: the value found there.' })),
    allowed: Type.Optional(Type.String({ description: 'Scenario import VALIDATION_ERROR: what that field accepts.' })),
    tokenKind: Type.Optional(
      Type.Object(
        { received: Type.String(), accepted: Type.Array(Type.String()) },
        { description: 'A wrong kind of token: the kind received and the kinds the route takes.' }
      )
    ),
    closest: Type.Optional(
      Type.Union([
        Type.Object(
          { method: Type.String(), path: Type.String(), query: Type.String() },
          { description: 'NO_RECORDED_MATCH: the closest recorded request (secrets as fingerprints).' }
        ),
        Type.Null()
      ])
    ),
    differs: Type.Optional(
      Type.Union([
        Type.String({
          description:
            'NO_RECORDED_MATCH: the first field that differs from the closest recorded request (`method`, `path`, `query.<name>`, `header.<name>`, `body.<json path>`).'
        }),
        Type.Null()
      ])
    )
  },
  { additionalProperties: true, $id: 'ErrorResponse', title: 'ErrorResponse' }
)

/** Shared error responses for routes: documented once, serialized as-is. */
export const errorResponses = {
  '4xx': Type.Ref('ErrorResponse'),
  '5xx': Type.Ref('ErrorResponse')
}

/** Optional on every POST management endpoint; kept in the audit trail. */
export const ActionNoteBody = Type.Object(
  {
    reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Free text recorded in the audit trail.' })),
    metadata: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'A JSON object recorded in the audit trail with the action (at most 4 KiB).',
        maxProperties: 50
      })
    )
  },
  { additionalProperties: false }
)

export const ProductIdParams = Type.Object(
  { productId: Type.String({ minLength: 1, maxLength: 200, description: 'The product ID (not the App ID).' }) },
  { additionalProperties: false }
)
