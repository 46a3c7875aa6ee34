import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

import { isDomainError } from '../../core/errors/domain-error'
import { previewOf, redactText } from '../../core/redaction/redact'
import { errorStatus } from '../../shared/contract/error-codes'
import type { ErrorCode } from '../../shared/contract/error-codes'
import { ErrorResponse } from '../../shared/schemas/common'
import { recoveryAnswer } from '../errors/credential-recovery'
import { httpStatusOf } from '../errors/http-status'
import { TransportError } from '../errors/transport-codes'
import { closeIgnoredField } from './tolerant-requests'

export interface ErrorBody {
  ok: false
  error: string
  message: string
  [detail: string]: unknown
}

/** Fastify's own client errors, in the contract's words. Messages never echo the input back. */
const FASTIFY_CLIENT_ERRORS: Record<string, { error: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { error: 'VALIDATION_ERROR', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { error: 'VALIDATION_ERROR', message: 'The request body is empty.' },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    error: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is larger than this endpoint accepts.'
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    error: 'VALIDATION_ERROR',
    message: 'The Content-Length does not match the body.'
  },
  FST_ERR_CTP_INVALID_TYPE: { error: 'VALIDATION_ERROR', message: 'The Content-Type header is not valid.' },
  FST_ERR_BAD_URL: { error: 'VALIDATION_ERROR', message: 'The request URL is not valid.' },
  FST_ERR_ASYNC_CONSTRAINT: { error: 'VALIDATION_ERROR', message: 'The request could not be routed.' }
}

/** The methods a 405's Allow header can name. */
const ROUTABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

/** The fallback for a client error no table above names, by its status. */
const CLIENT_ERRORS_BY_STATUS: Record<number, { error: ErrorCode; message: string }> = {
  400: { error: 'MALFORMED_REQUEST', message: 'The request could not be processed as sent.' },
  404: { error: 'NOT_FOUND', message: 'No such route.' },
  408: { error: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time.' },
  413: { error: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than this endpoint accepts.' },
  414: { error: 'URI_TOO_LONG', message: 'The request URL is longer than this server accepts.' },
  415: { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the body as application/json.' },
  431: { error: 'HEADERS_TOO_LARGE', message: 'The request headers are larger than this server accepts.' }
}

/**
 * The one error handler: every failure leaves as `{ ok:false, error, message, ...details }`
 * (docs/api.md section 1). Anything unexpected is a 500 INTERNAL, logged with its request id.
 */
export const errorHandling = fp(
  async (app) => {
    app.setErrorHandler((thrown: FastifyError, request, reply) => {
      // A SQLite error some write raised outside the store's transactions: a storage fault is the domain's STORAGE_*.
      const error = (app.core.storage.storageErrorOf(thrown) as FastifyError | null) ?? thrown
      if (isDomainError(error)) {
        // STORAGE_BUSY: when to try again.
        if (typeof error.details.retryAfter === 'number') reply.header('retry-after', String(error.details.retryAfter))
        // Read per request: strict mode (hide debug details as production does) can be switched at runtime (PUT /_emulator/settings).
        const hideDebug = app.settings.strict
        const message = hideDebug ? error.productionMessage : error.message
        const recovery = error.recovery ? recoveryAnswer(error.recovery, message) : null
        const body: ErrorBody = {
          ok: false,
          ...error.details,
          ...(hideDebug ? {} : error.debugDetails),
          ...(recovery ? { recovery: recovery.recovery } : {}),
          error: error.code,
          message: recovery ? recovery.message : message
        }
        return send(reply, httpStatusOf(error), body)
      }
      if (error instanceof TransportError) {
        return send(reply, httpStatusOf(error), { ok: false, error: error.code, message: error.message })
      }
      if (error.validation) {
        return send(reply, errorStatus('VALIDATION_ERROR'), {
          ok: false,
          error: 'VALIDATION_ERROR',
          message: describeValidation(error, request),
          details: error.validation.map((issue) => ({
            location: error.validationContext ?? 'body',
            path: issue.instancePath || '/',
            problem: issue.message ?? 'is not valid',
            ...(issue.keyword === 'additionalProperties'
              ? { field: (issue.params as { additionalProperty?: string }).additionalProperty }
              : {})
          }))
        })
      }
      const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined
      if (known) return send(reply, errorStatus(known.error), { ok: false, error: known.error, message: known.message })
      if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
        // Another client error raised by Fastify or a plugin: a documented code by its status, never a new one.
        const answer = CLIENT_ERRORS_BY_STATUS[error.statusCode] ?? CLIENT_ERRORS_BY_STATUS[400]!
        return send(reply, errorStatus(answer.error), { ok: false, error: answer.error, message: answer.message })
      }
      request.log.error(
        { requestId: request.id, err: { type: error.name, message: redactText(error.message), stack: error.stack } },
        'unhandled error'
      )
      return send(reply, errorStatus('INTERNAL'), {
        ok: false,
        error: 'INTERNAL',
        message: `The emulator hit an internal error (request ${request.id}). This is a defect; the log has the details.`,
        requestId: request.id
      })
    })

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/'
      // A path some route takes with another method: 405 with Allow (RFC 9110 15.5.6), not "no route".
      const allowed = ROUTABLE_METHODS.filter((method) => {
        const route = app.findRoute({ method, url: path })
        // The UI's catch-all (GET /*) takes any path; it does not make a path known.
        return route !== null && !('*' in (route.params ?? {}))
      })
      if (allowed.length > 0) {
        reply.header('allow', allowed.join(', '))
        return send(reply, errorStatus('METHOD_NOT_ALLOWED'), {
          ok: false,
          error: 'METHOD_NOT_ALLOWED',
          message: `${path} does not take ${request.method}; it takes ${allowed.join(', ')}.`
        })
      }
      return send(reply, errorStatus('NOT_FOUND'), {
        ok: false,
        error: 'NOT_FOUND',
        message: `No route ${request.method} ${path}.`
      })
    })
  },
  { name: 'error-handling', dependencies: ['emulator-context'] }
)

/**
 * The last guard of "nothing echoed" (docs/api.md section 1): whatever an answer repeats of the
 * request (a path, a field name, an id) leaves with secret-shaped values and the admin token
 * previewed, as the logs show them. Ids are checked for their shape where they are named.
 */
function scrubbed(body: ErrorBody, adminToken: string): ErrorBody {
  const scrub = (text: string) => {
    const out = redactText(text)
    return adminToken.length >= 8 && out.includes(adminToken) ? out.split(adminToken).join(previewOf(adminToken)) : out
  }
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return scrub(value)
    if (value === null || typeof value !== 'object' || depth > 8) return value
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1))
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, depth + 1)]))
  }
  return walk(body, 0) as ErrorBody
}

/** The envelope's keys in the order its schema lists them: ok, error, message, then the details. */
const ERROR_KEYS = Object.keys(ErrorResponse.properties)

/**
 * The body with its keys in the schema's order, whichever serializer writes it: fast-json-stringify
 * writes a schema's order, JSON.stringify the object's (plain-json-serializer.ts), and an answer
 * reads the same from every route. A key the schema does not list goes last.
 */
function inSchemaOrder(body: ErrorBody): ErrorBody {
  const ordered: Record<string, unknown> = {}
  for (const key of ERROR_KEYS) if (body[key] !== undefined) ordered[key] = body[key]
  for (const key of Object.keys(body)) if (!(key in ordered)) ordered[key] = body[key]
  return ordered as ErrorBody
}

function send(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(inSchemaOrder(scrubbed(body, reply.server.settings.adminToken)))
}

function describeValidation(error: FastifyError, request: FastifyRequest): string {
  const first = error.validation?.[0]
  if (!first) return 'The request is not valid.'
  const where = error.validationContext ?? 'body'
  if (first.keyword === 'additionalProperties') {
    const field = (first.params as { additionalProperty?: string }).additionalProperty
    return `Unknown field "${field}" in the ${where}.`
  }
  if (first.keyword === 'required') {
    const field = (first.params as { missingProperty?: string }).missingProperty
    // An unknown name close to the missing one was ignored: likely the same field, misspelt.
    const close = field ? closeIgnoredField(request, field) : null
    // The very name, in the other place (`?license_key=` to a body-only endpoint): say where it goes.
    if (close && close.field === field)
      return `Missing required field "${field}" in the ${where}: it came in the ${close.location}, which this endpoint does not read; send it in the ${where}.`
    if (close)
      return `Missing required field "${field}" in the ${where}; "${close.field}" (${close.location}) is not a field here: did you mean \`${field}\`?`
    return `Missing required field "${field}" in the ${where}.`
  }
  const path = first.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : where
  return `The ${where} field "${path}" ${first.message ?? 'is not valid'}.`
}
