import type { FastifySchemaCompiler, FastifySchemaValidationError, FastifyServerOptions } from 'fastify'
import type { TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { Value } from 'typebox/value'

/**
 * Request validation as docs/api.md section 1 reads: a JSON body of the wrong type is a 400
 * VALIDATION_ERROR, never silently coerced. Fastify's default Ajv coerces (`{"reason": 123}`
 * becomes "123", `{"reason": ["x"]}` becomes "x", `null` becomes ""), so bodies are checked
 * as sent. Path and query values arrive as text and are still converted to the schema's type.
 * Issues keep Ajv's shape, so the error handler words them the same way. Each check is compiled
 * on its route's first request, not at start: a start compiled some 150 of them (cold start).
 */
export const noCoercionValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  let compiled: ReturnType<typeof Compile<TSchema>> | undefined
  return (value: unknown) => {
    const check = (compiled ??= Compile(schema))
    const input = httpPart === 'body' ? value : Value.Convert(schema, value)
    if (check.Check(input)) return { value: input }
    return { error: toAjvIssues(check.Errors(input)) }
  }
}

interface TypeBoxIssue {
  keyword: string
  schemaPath: string
  instancePath: string
  params: object
  message: string
}

function toAjvIssues(errors: readonly TypeBoxIssue[]): FastifySchemaValidationError[] {
  const hasUnknownField = errors.some((issue) => issue.keyword === 'additionalProperties')
  const out: FastifySchemaValidationError[] = []
  for (const issue of errors) {
    const base = { keyword: issue.keyword, instancePath: issue.instancePath, schemaPath: issue.schemaPath }
    const params = issue.params as Record<string, unknown>
    // `additionalProperties: false` also reports each extra property as "schema is false".
    if (issue.keyword === 'boolean' && hasUnknownField) continue
    if (issue.keyword === 'additionalProperties' && Array.isArray(params.additionalProperties)) {
      for (const field of params.additionalProperties as unknown[]) {
        out.push({
          ...base,
          params: { additionalProperty: String(field) },
          message: 'must NOT have additional properties'
        })
      }
      continue
    }
    if (issue.keyword === 'required' && Array.isArray(params.requiredProperties)) {
      for (const field of params.requiredProperties as unknown[]) {
        out.push({
          ...base,
          params: { missingProperty: String(field) },
          message: `must have required property '${String(field)}'`
        })
      }
      continue
    }
    out.push({ ...base, params, message: issue.message })
  }
  if (out.length === 0)
    out.push({ keyword: 'type', instancePath: '', schemaPath: '#', params: {}, message: 'is not valid' })
  return out
}

export type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>

/**
 * For the whole app (build-server's `schemaController`): every route validates with
 * `noCoercionValidatorCompiler`. Given as the factory rather than set on the instance, so Fastify
 * never loads its default, @fastify/ajv-compiler (Ajv and its JTD half: about 45 ms of a start).
 * Cast: Fastify types the factory's result as Ajv's compile; at run time it is used as any
 * `setValidatorCompiler` compiler is, which ours is.
 */
export const noCoercionValidators = (() => noCoercionValidatorCompiler) as unknown as ValidatorFactory

/** The part of a Fastify instance (any type provider) that `acceptJsonBodiesOnly` configures. */
export interface JsonBodiesTarget {
  hasContentTypeParser(contentType: string): boolean
  removeContentTypeParser(contentType: string): unknown
}

/**
 * For the whole app (build-server): accept JSON bodies only. Fastify also parses text/plain by
 * default, which turned a wrong Content-Type into a 400 ("must be object") instead of the 415
 * UNSUPPORTED_MEDIA_TYPE a client should see.
 */
export function acceptJsonBodiesOnly(app: JsonBodiesTarget): void {
  if (app.hasContentTypeParser('text/plain')) app.removeContentTypeParser('text/plain')
}
