import { ScenarioDocumentSchema } from '../../core/scenarios/scenario-schema'
import { DEFAULT_PORT } from '../server-options'
import { OPERATION_IDS, TAGS } from './operation-ids'

// What the route schemas cannot say by themselves, added once the document is generated: ids,
// tags, servers, per-route error shapes, headers and the scenario schema. Each comes from one
// source (the answers each route declares, the scenario JSON Schema, the operation-id table).

// The document as @fastify/swagger makes it: plain JSON, walked by key.
/* eslint-disable @typescript-eslint/no-explicit-any -- a generated JSON document, checked by the linters' tests */
type Json = Record<string, any>

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** The header each answer of a kind carries, as the server sends it. */
const RETRY_AFTER = { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 0 } }
const DOWNLOAD_HEADERS = {
  'Accept-Ranges': {
    description: 'Always `bytes`: a Range request is served.',
    schema: { type: 'string', enum: ['bytes'] }
  },
  'Content-Length': { description: 'Bytes in this answer.', schema: { type: 'integer', minimum: 0 } },
  'Content-Disposition': { description: 'attachment, with the file name.', schema: { type: 'string' } }
}
const CONTENT_RANGE = {
  description: 'The range served, `bytes start-end/size` (416: `bytes */size`).',
  schema: { type: 'string' }
}

export function finishDocument(document: Json): Json {
  document.info.license = { name: 'MIT', identifier: 'MIT' }
  document.info.contact = {
    name: 'Plugin License Emulator contributors',
    url: 'https://www.npmjs.com/package/plugin-license-emulator'
  }
  document.servers = [
    {
      url: 'http://127.0.0.1:{port}',
      description: 'The emulator on this machine (serve prints its base URL; --port 0 picks another port).',
      variables: { port: { default: String(DEFAULT_PORT) } }
    }
  ]
  document.tags = TAGS.map((tag) => ({ ...tag }))
  const scenario = scenarioComponent()
  document.components.schemas.ScenarioDocument = scenario

  for (const [path, item] of Object.entries<Json>(document.paths)) {
    const routePath = path.replace(/\{([^}]+)\}/g, ':$1')
    for (const method of METHODS) {
      if (!item[method]) continue
      // Methods of one route (GET and HEAD of a download) share one object: each gets its own.
      const operation = (item[method] = structuredClone(item[method])) as Json
      const key = `${method.toUpperCase()} ${routePath}`
      const operationId = OPERATION_IDS[key]
      if (!operationId)
        throw new Error(`OpenAPI: no operationId for ${key}; add one to src/server/openapi/operation-ids.ts`)
      operation.operationId = operationId
      requireBodyOnlyWhenNeeded(document, operation)
      declareErrorShapes(operation)
      if (!path.startsWith('/_emulator')) declareRateLimit(operation)
    }
  }
  declareDownloadHeaders(document.paths['/api/downloads/{fileId}'])
  declareScenarioDocument(document.paths['/_emulator/state'])
  return document
}

/** The server reads a missing POST/PUT body as `{}`: a body is required only when a field is. */
function requireBodyOnlyWhenNeeded(document: Json, operation: Json): void {
  const body = operation.requestBody as Json | undefined
  if (!body) return
  let schema = body.content?.['application/json']?.schema as Json | undefined
  if (typeof schema?.$ref === 'string') schema = document.components.schemas[schema.$ref.split('/').pop() as string]
  body.required = Array.isArray(schema?.required) && schema.required.length > 0
}

/**
 * Each declared error status: the codes it answers and the detail keys they carry, from the
 * examples the route declares (src/shared/schemas/error-answers.ts), on top of ErrorResponse.
 */
function declareErrorShapes(operation: Json): void {
  for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
    const content = response.content?.['application/json']
    if (!/^[45]\d\d$/.test(status) || !content?.examples) continue
    const values = Object.values<Json>(content.examples).map((example) => example.value as Json)
    const codes = [...new Set(values.map((value) => value.error as string))]
    // The detail keys these answers carry, each as ErrorResponse declares it (not required: a
    // code's answer carries them when it has something to say, as in the examples).
    const detailKeys = [...new Set(values.flatMap((value) => Object.keys(value)))].filter(
      (k) => !['ok', 'error', 'message'].includes(k)
    )
    const details = Object.fromEntries(
      detailKeys.map((k) => [k, { $ref: `#/components/schemas/ErrorResponse/properties/${k}` }])
    )
    // The codes are named, not enumerated: the examples show this route's own answers, while a
    // fault rule or an auth failure can answer another code with the same status.
    content.schema = {
      allOf: [
        { $ref: '#/components/schemas/ErrorResponse' },
        { type: 'object', description: `This route's ${status} answers: ${codes.join(', ')}.`, properties: details }
      ]
    }
  }
}

/** Fault injection's rate limit reaches every service route: 429 with Retry-After. */
function declareRateLimit(operation: Json): void {
  operation.responses['429'] ??= {
    description: 'RATE_LIMITED: a rate-limit fault rule matched (emulator control plane, PUT /_emulator/faults).',
    headers: { 'Retry-After': RETRY_AFTER },
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/ErrorResponse' },
            {
              type: 'object',
              properties: { error: { type: 'string', enum: ['RATE_LIMITED'] } },
              required: ['retryAfter']
            }
          ]
        },
        examples: {
          RATE_LIMITED: {
            summary: 'Too many requests',
            value: {
              ok: false,
              error: 'RATE_LIMITED',
              message: 'Too many requests (injected fault, rule flt_1); retry after 2 s.',
              retryAfter: 2
            }
          }
        }
      }
    }
  }
}

function declareDownloadHeaders(item: Json | undefined): void {
  for (const method of ['get', 'head']) {
    const responses = item?.[method]?.responses as Json | undefined
    if (!responses) continue
    if (responses['200']) responses['200'].headers = { ...DOWNLOAD_HEADERS }
    if (responses['206']) responses['206'].headers = { ...DOWNLOAD_HEADERS, 'Content-Range': CONTENT_RANGE }
    if (responses['416']) responses['416'].headers = { 'Content-Range': CONTENT_RANGE }
  }
}

/** GET answers `{ ok, state: <scenario> }`; PUT takes the document, or `{ state: <document> }` as GET answers it. */
function declareScenarioDocument(item: Json | undefined): void {
  const ref = { $ref: '#/components/schemas/ScenarioDocument' }
  const exported = item?.get?.responses?.['200']?.content?.['application/json']?.schema as Json | undefined
  if (exported?.properties) exported.properties.state = ref
  const body = item?.put?.requestBody?.content?.['application/json'] as Json | undefined
  if (body) {
    body.schema = {
      oneOf: [
        ref,
        {
          type: 'object',
          required: ['state'],
          properties: { state: ref },
          additionalProperties: false,
          description: 'As GET answers it.'
        }
      ]
    }
    item!.put.requestBody.required = true
  }
}

/** The scenario JSON Schema (the one `scenario-schema` prints), as a component: no $id, so its refs stay local. */
function scenarioComponent(): Json {
  const { $id: _id, ...schema } = structuredClone(ScenarioDocumentSchema) as Json
  return schema
}
