import { ApiError } from './errors'

/** `fetch` as the clients need it; tests pass a fake. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

export type QueryValue = string | number | boolean | null | undefined

export interface HttpRequest {
  method: string
  /** Path from the base URL, starting with `/`. */
  path: string
  query?: Record<string, QueryValue> | undefined
  headers?: Record<string, string> | undefined
  /** JSON-encoded when given. */
  body?: unknown
  signal?: AbortSignal | undefined
}

/** One request and its response, as the connection tester and the error views show them. */
export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body: unknown }
  response: { status: number; statusText: string; headers: Record<string, string>; body: unknown } | null
  startedAt: string
  durationMs: number
  /** Set when the response was not a success (non-2xx, `ok: false`) or never came. */
  error: ApiError | null
}

export interface HttpClient {
  readonly baseUrl: string
  url(path: string, query?: Record<string, QueryValue>): string
  /** Sends and records; never throws for an HTTP failure (see `error`). */
  exchange(request: HttpRequest): Promise<Exchange>
  /** Sends and returns the JSON body; throws ApiError for anything but a success. */
  json<T>(request: HttpRequest): Promise<T>
}

export function buildUrl(baseUrl: string, path: string, query?: Record<string, QueryValue>): string {
  const base = baseUrl.replace(/\/+$/, '')
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value))
  }
  const text = search.toString()
  return `${base}${path}${text ? `?${text}` : ''}`
}

function parseBody(text: string, contentType: string | null): unknown {
  if (text === '') return null
  if (contentType?.includes('json') || /^[[{]/.test(text.trimStart())) {
    try {
      return JSON.parse(text) as unknown
    } catch {
      return text
    }
  }
  return text
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now()
}

export function createHttpClient(options: {
  baseUrl: string
  fetch?: FetchLike | undefined
  headers?: Record<string, string>
}): HttpClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  // Unbound `fetch` throws "Illegal invocation" in browsers.
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const defaultHeaders = options.headers ?? {}

  async function exchange(request: HttpRequest): Promise<Exchange> {
    const url = buildUrl(baseUrl, request.path, request.query)
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...defaultHeaders,
      ...(request.headers ?? {})
    }
    const hasBody = request.body !== undefined
    if (hasBody) headers['content-type'] = 'application/json'
    const startedAt = new Date().toISOString()
    const started = now()
    const recordedRequest = { method: request.method, url, headers, body: hasBody ? request.body : null }
    let response: Response
    try {
      response = await doFetch(url, {
        method: request.method,
        headers,
        body: hasBody ? JSON.stringify(request.body) : undefined,
        signal: request.signal
      })
    } catch (cause) {
      return {
        request: recordedRequest,
        response: null,
        startedAt,
        durationMs: now() - started,
        error: ApiError.network(cause)
      }
    }
    let text = ''
    try {
      text = await response.text()
    } catch (cause) {
      return {
        request: recordedRequest,
        response: null,
        startedAt,
        durationMs: now() - started,
        error: ApiError.network(cause)
      }
    }
    const body = parseBody(text, response.headers.get('content-type'))
    const responseHeaders: Record<string, string> = {}
    response.headers.forEach((value, key) => {
      responseHeaders[key] = value
    })
    const failed =
      !response.ok || (body !== null && typeof body === 'object' && (body as { ok?: unknown }).ok === false)
    return {
      request: recordedRequest,
      response: { status: response.status, statusText: response.statusText, headers: responseHeaders, body },
      startedAt,
      durationMs: now() - started,
      error: failed ? ApiError.fromBody(response.status, body) : null
    }
  }

  return {
    baseUrl,
    url: (path, query) => buildUrl(baseUrl, path, query),
    exchange,
    async json<T>(request: HttpRequest): Promise<T> {
      const result = await exchange(request)
      if (result.error) throw result.error
      return result.response?.body as T
    }
  }
}
