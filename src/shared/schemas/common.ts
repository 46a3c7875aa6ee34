import { Type } from 'typebox'
import type { TObject, TProperties, TSchema } from 'typebox'

/** `T | null`, as JSON Schema (OpenAPI 3.1). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** A success body (docs/api.md section 1): `ok: true` beside the fields of `schema`, which stays usable on its own. */
export const Ok = <P extends TProperties>(schema: TObject<P>) => Type.Object({ ok: Type.Literal(true), ...schema.properties })

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 instant (UTC), on the emulator clock.' })

/** The error envelope of docs/api.md section 1. Details are extra top-level keys. */
export const ErrorResponse = Type.Object(
  {
    ok: Type.Literal(false),
    error: Type.String({ description: 'UPPER_SNAKE error code.' }),
    message: Type.String({ description: 'One sentence for a person.' })
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
