import { distance } from 'fastest-levenshtein'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { TSchema } from 'typebox'
import { Value } from 'typebox/value'

/** A query parameter or body field the route does not know, dropped before validation. */
export interface IgnoredField {
  location: 'query' | 'body'
  field: string
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Unknown names this request sent and the route ignored; null when there were none. */
    ignoredFields: IgnoredField[] | null
    /** The body as sent, when unknown fields were dropped from `body` (the inspector shows what arrived). */
    sentBody: { value: unknown } | null
  }
}

/**
 * Unknown names are ignored, not refused, on the service API: browsers, web views and HTTP
 * libraries add `?_=1700000000` or `utm_source`, and clients send body fields the platform does
 * not know. Top-level query parameters and body fields a route's schema does not declare are
 * dropped before validation and remembered (the inspector shows them; a 400 for a missing field
 * names a close one). Known fields with invalid values still fail validation. The control plane
 * (`/_emulator/*`) refuses unknown fields: its documents are written by people, and a typo there must be named.
 */
export const tolerantRequests = fp(
  async (app) => {
    app.decorateRequest('ignoredFields', null)
    app.decorateRequest('sentBody', null)
    app.addHook('preValidation', async (request) => {
      // Everywhere, the control plane too: clients that send absent optionals as null are not wrong.
      const withoutNulls = withoutNullOptionals(request.body, request.routeOptions.schema?.body)
      if (withoutNulls !== request.body) {
        request.sentBody = { value: request.body }
        request.body = withoutNulls
      }
      const url = request.routeOptions.url
      if (url === undefined || url === '/_emulator' || url.startsWith('/_emulator/')) return
      const schema = request.routeOptions.schema
      const ignored = dropUnknown(request.query, schema?.querystring, 'query')
      const body = request.body
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        const copy = { ...(body as Record<string, unknown>) }
        const dropped = dropUnknown(copy, schema?.body, 'body')
        if (dropped.length > 0) {
          request.sentBody ??= { value: body }
          request.body = copy
          ignored.push(...dropped)
        }
      }
      if (ignored.length > 0) request.ignoredFields = ignored
    })
  },
  { name: 'tolerant-requests' }
)

/**
 * `value` with each explicit `null` on an optional field removed: null is "absent" (docs/api.md
 * section 1), unless the field's own schema takes null (then null keeps its meaning, as "clear").
 * Nested objects are walked by their schemas. The same reference when nothing was null.
 */
export function withoutNullOptionals(value: unknown, schema: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value) || !schema || typeof schema !== 'object') return value
  const { properties, required } = schema as { properties?: Record<string, TSchema>; required?: string[] }
  if (!properties) return value
  let out: Record<string, unknown> | null = null
  for (const [field, item] of Object.entries(value)) {
    const property = properties[field]
    if (!property) continue
    const next =
      item === null
        ? required?.includes(field) || takesNull(property)
          ? null
          : REMOVED
        : withoutNullOptionals(item, property)
    if (next === item) continue
    out ??= { ...(value as Record<string, unknown>) }
    if (next === REMOVED) delete out[field]
    else out[field] = next
  }
  return out ?? value
}

const REMOVED = Symbol('removed')

function takesNull(schema: TSchema): boolean {
  try {
    return Value.Check(schema, null)
  } catch {
    // A schema TypeBox cannot check alone (a reference): keep null as sent.
    return true
  }
}

function dropUnknown(part: unknown, schema: unknown, location: IgnoredField['location']): IgnoredField[] {
  if (!part || typeof part !== 'object' || Array.isArray(part)) return []
  const declared =
    schema && typeof schema === 'object' ? (schema as { properties?: unknown; additionalProperties?: unknown }) : null
  // A schema that takes any name (a record, or extra properties allowed) knows them all.
  if (
    declared &&
    (declared.additionalProperties !== false || !declared.properties || typeof declared.properties !== 'object')
  )
    return []
  const known = new Set(declared ? Object.keys(declared.properties as object) : [])
  const ignored: IgnoredField[] = []
  const fields = part as Record<string, unknown>
  for (const field of Object.keys(fields)) {
    if (known.has(field)) continue
    ignored.push({ location, field })
    delete fields[field]
  }
  return ignored
}

/** The inspector's warning for each ignored name. */
export function ignoredFieldWarnings(request: FastifyRequest): string[] | undefined {
  return request.ignoredFields?.map(({ location, field }) =>
    location === 'query'
      ? `Ignored unknown query parameter "${field.slice(0, 100)}".`
      : `Ignored unknown body field "${field.slice(0, 100)}".`
  )
}

/**
 * An ignored name close to `missing` (a typo, another case or separator): "did you mean" material.
 * Close: the same letters once case, `_` and `-` are set aside, or at most two edits apart.
 */
export function closeIgnoredField(request: FastifyRequest, missing: string): IgnoredField | null {
  const normal = (name: string) => name.toLowerCase().replace(/[_-]/g, '')
  for (const candidate of request.ignoredFields ?? []) {
    if (normal(candidate.field) === normal(missing)) return candidate
    if (missing.length >= 4 && editDistance(candidate.field.toLowerCase(), missing.toLowerCase()) <= 2) return candidate
  }
  return null
}

/** Names longer than this are not compared: an attacker's 16 KB field name costs nothing. */
const MAX_COMPARED_LENGTH = 100

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2 || a.length > MAX_COMPARED_LENGTH || b.length > MAX_COMPARED_LENGTH)
    return Number.POSITIVE_INFINITY
  return distance(a, b)
}

/**
 * The OpenAPI view of a route's schema: on the service API, query and body objects take extra
 * names (ignored), so the document says so; control-plane documents stay closed.
 */
export function documentTolerance<S extends { querystring?: unknown; body?: unknown } | undefined>(
  schema: S,
  url: string
): S {
  if (!schema || url === '/_emulator' || url.startsWith('/_emulator/')) return schema
  const open = (part: unknown) =>
    part && typeof part === 'object' && (part as { additionalProperties?: unknown }).additionalProperties === false
      ? { ...part, additionalProperties: true }
      : part
  return { ...schema, querystring: open(schema.querystring), body: open(schema.body) }
}
