import { request as httpRequest } from 'node:http'

export interface RawResult {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
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
        headers: { ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}), ...options.headers }
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
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body })
        })
        res.on('error', reject)
      }
    )
    req.on('error', reject)
    if (options.body !== undefined) req.write(options.body)
    req.end()
  })
}
