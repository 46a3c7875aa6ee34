import type { FastifyInstance } from 'fastify'

import { TransportError } from '../errors/transport-codes'

/**
 * A request body the server cannot read as sent: compressed (`Content-Encoding: gzip`, `br`, ...).
 * Refused with 415 and `Accept-Encoding: identity` (RFC 9110 section 15.5.16) before it is parsed,
 * where it used to be decoded as text and reported as "not valid JSON". Forwarded calls never get
 * here: the upstream hooks hand them on, bytes untouched, in `onRequest`.
 */
export function refuseEncodedBodies(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, reply, payload) => {
    const coding = codingOf(request.headers['content-encoding'])
    // GET and HEAD bodies are never read, so never refused.
    if (coding === null || request.method === 'GET' || request.method === 'HEAD' || !hasBody(request.headers))
      return payload
    reply.header('accept-encoding', 'identity')
    throw new TransportError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The request body is sent with Content-Encoding: ${coding}, which this server does not decode; send it uncompressed (no Content-Encoding).`
    )
  })
}

/** The coding named, lower-case and cut short; null for none or `identity`. */
function codingOf(header: string | string[] | undefined): string | null {
  const value = (Array.isArray(header) ? header.join(', ') : (header ?? '')).trim().toLowerCase()
  if (value === '' || value === 'identity') return null
  // Named back to the client: only a token's characters, never anything it could smuggle.
  return value.replace(/[^a-z0-9, -]/g, '').slice(0, 40) || 'an unknown coding'
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0
}
