import type { FastifyBodyParser } from 'fastify'

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
    return fastifyJson(request, body, done)
  }
}
