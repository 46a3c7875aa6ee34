import type { Socket } from 'node:net'

import { errorStatus } from '../../shared/contract/error-codes'
import type { TransportErrorCode } from '../../shared/contract/error-codes'
import { nodeHttp } from '../http/node-http'

/** How long a refused connection keeps reading (and dropping) what the client still sends before it is closed. */
const LINGER_MS = 2000

/** The longest request line (method, URL, version) read as a header overflow of its own: a URI too long. */
const LONGEST_REQUEST_LINE = 8 * 1024

interface ClientError extends Error {
  code?: string
  /** What Node's parser was reading when it gave up: a Buffer at run time (Fastify's type says otherwise). */
  rawPacket?: unknown
}

export interface ClientErrorAnswer {
  status: number
  error: TransportErrorCode
  message: string
}

const answer = (error: TransportErrorCode, message: string): ClientErrorAnswer => ({
  status: errorStatus(error),
  error,
  message
})

/**
 * What a request Node's HTTP parser refused before Fastify saw it is answered with, in the
 * contract's error shape. The message never echoes the input back.
 */
export function clientErrorAnswer(error: ClientError): ClientErrorAnswer {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || error.code === 'ERR_HTTP_HEADERS_TIMEOUT') {
    return answer('REQUEST_TIMEOUT', 'The request did not arrive in time.')
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const packet = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : null
    const lineEnd = packet ? packet.indexOf('\r\n') : -1
    const requestLineLength = packet ? (lineEnd === -1 ? packet.length : lineEnd) : 0
    if (requestLineLength > LONGEST_REQUEST_LINE) {
      return answer('URI_TOO_LONG', 'The request URL is longer than this server accepts.')
    }
    return answer('HEADERS_TOO_LARGE', 'The request headers are larger than this server accepts.')
  }
  return answer(
    'MALFORMED_REQUEST',
    'The request is not valid HTTP/1.1 (framing, Content-Length, header or request line).'
  )
}

/**
 * Fastify's `clientErrorHandler`: Node's parser refused the bytes (bad framing, a duplicate or
 * invalid Content-Length, a control character, a header overflow), so there is no request to
 * route; answer on the socket and close it.
 */
export function handleClientError(error: ClientError, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const answer = clientErrorAnswer(error)
  const body = JSON.stringify({ ok: false, error: answer.error, message: answer.message })
  if (!socket.writable) {
    socket.destroy()
    return
  }
  // A lingering close (RFC 9112 section 9.6): the answer, then our half of the connection, while
  // what the client is still sending is read and dropped. Destroying at once, with the rest of a
  // long request still arriving, made the kernel reset the connection, and a client that had the
  // answer in hand saw ECONNRESET instead (the fuzz test's seed 171979, under load).
  socket.end(
    `HTTP/1.1 ${answer.status} ${nodeHttp.STATUS_CODES[answer.status] ?? 'Error'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  )
  socket.on('data', () => undefined)
  socket.resume()
  const linger = setTimeout(() => socket.destroy(), LINGER_MS)
  linger.unref()
  socket.once('close', () => clearTimeout(linger))
  // The client has sent everything: nothing is left to drop.
  socket.once('end', () => socket.destroy())
}
