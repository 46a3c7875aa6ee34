import type { FastifyBodyParser } from 'fastify'

import { DomainError } from '../../core/errors/domain-error'

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body as text, as it arrived (null without one): the request inspector shows it. */
    rawBody: string | null
  }
}

/**
 * JSON bodies through Fastify's own parser (prototype poisoning refused); an empty body counts
 * as "no body", since every management POST body is optional and clients often send the
 * Content-Type header with nothing after it.
 */
export function emptyTolerantJsonParser(fastifyJson: FastifyBodyParser<string>): FastifyBodyParser<string> {
  return (request, body, done) => {
    request.rawBody = body
    if (body.trim() === '') {
      done(null, undefined)
      return
    }
    // Returned, so that a parser answering with a promise is awaited by Fastify, not left floating.
    return fastifyJson(request, body, (error, parsed) => {
      done(error && isPoisonedJson(body) ? poisonedJsonError() : error, parsed)
    })
  }
}

/**
 * Text JSON.parse reads but Fastify's parser refused: it names `__proto__` or `constructor.prototype`
 * as a key, which Fastify refuses so a handler can never be handed an object with a changed prototype.
 * Checked only after a refusal, so a valid body pays nothing for it.
 */
function isPoisonedJson(body: string): boolean {
  try {
    JSON.parse(body)
    return true
  } catch {
    return false
  }
}

function poisonedJsonError(): DomainError {
  return new DomainError(
    'VALIDATION_ERROR',
    'The request body has a key the server refuses: "__proto__", or "constructor" holding "prototype" (they could change what an object inherits). Rename the key.'
  )
}
