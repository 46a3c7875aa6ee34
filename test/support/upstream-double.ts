import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the double received it. */
export interface ReceivedRequest {
  method: string
  url: string
  headers: IncomingMessage['headers']
  rawHeaders: string[]
  body: Buffer
}

/**
 * A stand-in for the real platform at the level of HTTP (docs/upstream.md): a loopback server
 * that records what arrives and answers with whatever the test sets, for what a second emulator
 * would never do (gzip, a redirect, a dropped connection, silence).
 */
export interface UpstreamDouble {
  readonly baseUrl: string
  readonly received: ReceivedRequest[]
  /** How the next requests are answered; the default answers 200 `{"ok":true}`. */
  answer(handler: (request: ReceivedRequest, response: ServerResponse) => void): void
  close(): Promise<void>
}

export async function startUpstreamDouble(): Promise<UpstreamDouble> {
  const received: ReceivedRequest[] = []
  let handler = (_request: ReceivedRequest, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
  }
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const seen: ReceivedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        rawHeaders: request.rawHeaders,
        body: Buffer.concat(chunks)
      }
      received.push(seen)
      handler(seen, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    answer(next) {
      handler = next
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
