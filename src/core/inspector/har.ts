import type { RequestEntry } from './types'

/**
 * The request log as a HAR 1.2 document (what browsers' network panels and Postman import):
 * built from the stored entries, so it is exactly as redacted as the inspector shows them
 * (previews of keys, secrets and tokens; never a value). Oldest first, as HAR lists them.
 */
export interface HarDocument {
  log: {
    version: '1.2'
    creator: { name: string; version: string }
    entries: HarEntry[]
  }
}

interface HarHeader {
  name: string
  value: string
}

interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    headers: HarHeader[]
    queryString: HarHeader[]
    cookies: []
    headersSize: -1
    bodySize: number
    postData?: { mimeType: string; text: string }
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    headers: HarHeader[]
    cookies: []
    content: { size: number; mimeType: string; text?: string }
    redirectURL: ''
    headersSize: -1
    bodySize: number
  }
  cache: Record<string, never>
  timings: { send: number; wait: number; receive: number }
  comment: string
}

const pairs = (map: Record<string, string | string[]>): HarHeader[] =>
  Object.entries(map).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((one) => ({ name, value: one }))
  )

const headerValue = (map: Record<string, string | string[]>, name: string): string | undefined => {
  const value = map[name]
  return Array.isArray(value) ? value[0] : value
}

const textOf = (body: unknown): string | undefined =>
  body === null || body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)

export function harOf(entries: readonly RequestEntry[], options: { baseUrl: string; version: string }): HarDocument {
  const base = options.baseUrl.replace(/\/$/, '')
  return {
    log: {
      version: '1.2',
      creator: { name: 'Plugin License Emulator', version: options.version },
      entries: [...entries]
        .sort((a, b) => a.id - b.id)
        .map((entry) => {
          const requestText = textOf(entry.request.body)
          const responseText = textOf(entry.response.body)
          const requestType = headerValue(entry.request.headers, 'content-type') ?? 'application/json'
          return {
            startedDateTime: entry.at,
            time: entry.durationMs,
            request: {
              method: entry.method,
              url: base + entry.path,
              httpVersion: 'HTTP/1.1',
              headers: pairs(entry.request.headers),
              queryString: pairs(entry.request.query),
              cookies: [],
              headersSize: -1,
              bodySize: entry.request.bodyInfo.bytes ?? -1,
              ...(requestText === undefined ? {} : { postData: { mimeType: requestType, text: requestText } })
            },
            response: {
              status: entry.status,
              statusText: '',
              httpVersion: 'HTTP/1.1',
              headers: pairs(entry.response.headers),
              cookies: [],
              content: {
                size: entry.response.bodyInfo.bytes ?? -1,
                mimeType: headerValue(entry.response.headers, 'content-type') ?? 'application/json',
                ...(responseText === undefined ? {} : { text: responseText })
              },
              redirectURL: '',
              headersSize: -1,
              bodySize: entry.response.bodyInfo.bytes ?? -1
            },
            cache: {},
            timings: { send: 0, wait: entry.durationMs, receive: 0 },
            comment: [
              `#${entry.id}`,
              `sent by ${entry.source}`,
              entry.errorCode ? `code ${entry.errorCode}` : null,
              entry.fault ? `fault ${entry.fault.ruleId}: ${entry.fault.label}` : null,
              'redacted by the emulator'
            ]
              .filter(Boolean)
              .join('; ')
          }
        })
    }
  }
}
