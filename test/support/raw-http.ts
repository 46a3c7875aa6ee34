import { request as httpRequest } from 'node:http'
import { connect } from 'node:net'

export interface RawResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  /** How many reads the body arrived in. */
  pieces: number
  // Tests read arbitrary response fields.
  body: Record<string, any> | undefined
}

/**
 * One HTTP/1.1 request through node:http, for what fetch will not send as asked: a chosen Host
 * header, an Origin, or a body with no Content-Type at all.
 */
export function rawRequest(
  baseUrl: string,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer }
): Promise<RawResult> {
  const url = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path,
        headers: {
          ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers
        }
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let body: Record<string, any> | undefined
          try {
            body = text ? (JSON.parse(text) as Record<string, any>) : undefined
          } catch {
            body = undefined
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, pieces: chunks.length, body })
        })
        res.on('error', reject)
      }
    )
    req.on('error', reject)
    if (options.body !== undefined) req.write(options.body)
    req.end()
  })
}

export interface SocketAnswer {
  status: number
  headers: Record<string, string>
  text: string
  // Tests read arbitrary response fields.
  body: Record<string, any> | undefined
}

/**
 * Sends `bytes` as they are over a new TCP connection and parses the first answer: for what no
 * HTTP client will send (bad framing, duplicate Content-Length, control characters, no Host).
 */
export function sendRawBytes(baseUrl: string, bytes: string | Buffer): Promise<SocketAnswer> {
  const url = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) })
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(parseSocketAnswer(Buffer.concat(chunks).toString('utf8'))))
    // The server answers and closes; a request it would wait on is ended from this side.
    socket.end(bytes)
  })
}

/** The first answer in the bytes a server sent on a connection: status, headers, body text (and JSON). */
export function parseSocketAnswer(raw: string): SocketAnswer {
  const split = raw.indexOf('\r\n\r\n')
  const head = split === -1 ? raw : raw.slice(0, split)
  const text = split === -1 ? '' : raw.slice(split + 4)
  const [statusLine = '', ...headerLines] = head.split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body: Record<string, any> | undefined
  try {
    body = JSON.parse(text) as Record<string, any>
  } catch {
    body = undefined
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, text, body }
}
