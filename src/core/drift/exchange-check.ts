import type { ForwardedExchange } from '../upstream/forwarded-exchange'
import type { DocumentedContract, DocumentedOperation, DocumentedResponse, SchemaNode } from './documented-operations'
import type { ExchangeFinding } from './finding'
import { checkShape } from './shape-check'
import { checkLicenseToken } from './token-check'
import type { UpstreamKeyLookup } from './upstream-keys'

export interface ExchangeCheckOptions {
  /** The App ID header's name, lower-case (`x-svc-app-id`: the prefix is a setting). */
  readonly appIdHeader: string
  readonly keyFor: UpstreamKeyLookup
}

export interface CheckedExchange {
  /** The documented operation the request went to, null when the document has none. */
  readonly operation: DocumentedOperation | null
  readonly findings: readonly ExchangeFinding[]
}

/** The body field a licensing answer carries its signed license token in. */
const TOKEN_FIELD = 'license_token'

/**
 * One upstream answer held to the emulator's contract for its operation and status
 * (docs/upstream.md, "The drift report"): the status, the headers the answer declares, the body
 * against its schema, and a license token in it against the upstream's own keys.
 */
export async function checkExchange(
  exchange: ForwardedExchange,
  contract: DocumentedContract,
  options: ExchangeCheckOptions
): Promise<CheckedExchange> {
  const operation = contract.operationOf(exchange.method, exchange.path)
  if (!operation) return { operation: null, findings: [] }
  const response = contract.responseOf(operation, exchange.status)
  if (!response) {
    const declared = Object.keys(operation.responses).join(', ')
    return {
      operation,
      findings: [
        {
          kind: 'UNDOCUMENTED_STATUS',
          location: 'status',
          path: String(exchange.status),
          expected: `one of ${declared}`,
          seen: String(exchange.status),
          value: exchange.status
        }
      ]
    }
  }
  const findings = [...headerFindings(exchange, response)]
  const body = bodyOf(exchange, response)
  if (body.finding) findings.push(body.finding)
  if (body.schema && body.json !== undefined) {
    findings.push(...checkShape(contract, body.schema, body.json))
    const token = tokenOf(body.json)
    if (token !== null)
      findings.push(
        ...(await checkLicenseToken(token, `$.${TOKEN_FIELD}`, {
          appId: headerText(exchange.requestHeaders[options.appIdHeader]),
          nonce: requestNonceOf(exchange),
          keyFor: options.keyFor
        }))
      )
  }
  return { operation, findings }
}

function headerFindings(exchange: ForwardedExchange, response: DocumentedResponse): ExchangeFinding[] {
  const found: ExchangeFinding[] = []
  const has = (name: string) => exchange.responseHeaders[name] !== undefined
  const missing = (name: string, expected: string): ExchangeFinding => ({
    kind: 'MISSING_HEADER',
    location: 'header',
    path: name,
    expected,
    seen: 'absent'
  })
  // A compressed or chunked answer has no Content-Length of its own: the emulator's would.
  const lengthUnknowable = has('content-encoding') || has('transfer-encoding')
  for (const name of response.headers) {
    if (name === 'content-length' && lengthUnknowable) continue
    if (!has(name)) found.push(missing(name, 'present (the emulator sends it with this status)'))
  }
  const hasBody = exchange.responseBody !== null && exchange.responseBody.length > 0
  if (hasBody && Object.keys(response.content).length > 0 && !has('content-type'))
    found.push(missing('content-type', `one of ${Object.keys(response.content).join(', ')}`))
  return found
}

interface BodyReading {
  /** The schema the body is held to, null when it is not read (not JSON, cut, none declared). */
  schema: SchemaNode | null
  json?: unknown
  finding?: ExchangeFinding
}

function bodyOf(exchange: ForwardedExchange, response: DocumentedResponse): BodyReading {
  const declared = Object.keys(response.content)
  if (exchange.method.toUpperCase() === 'HEAD' || exchange.status === 204 || exchange.status === 304)
    return { schema: null }
  const json = response.content['application/json']
  if (!json) return { schema: null }
  const contentType = headerText(exchange.responseHeaders['content-type'])
  const media = contentType?.split(';')[0]?.trim().toLowerCase() ?? null
  // Another media type this status also declares (an HTML page beside its JSON error) is not drift.
  if (media !== null && media !== 'application/json' && declared.includes(media)) return { schema: null }
  const notJson = (seen: string): BodyReading => ({
    schema: null,
    finding: { kind: 'NOT_JSON', location: 'body', path: '$', expected: 'application/json', seen }
  })
  if (media !== null && !/^application\/(?:[\w.+-]+\+)?json$/.test(media)) return notJson(media.slice(0, 100))
  if (exchange.responseBody === null || exchange.responseBody.length === 0) return notJson('an empty body')
  // A body cut by the forwarding's cap cannot be parsed whole: nothing is said about it.
  if (exchange.responseBodyTruncated) return { schema: null }
  try {
    return { schema: json.schema ?? null, json: JSON.parse(exchange.responseBody.toString('utf8')) as unknown }
  } catch {
    return notJson('a body that does not parse as JSON')
  }
}

function tokenOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null
  const token = (body as Record<string, unknown>)[TOKEN_FIELD]
  return typeof token === 'string' && token !== '' ? token : null
}

function requestNonceOf(exchange: ForwardedExchange): string | null {
  if (exchange.requestBody === null || exchange.requestBody.length === 0) return null
  try {
    const body = JSON.parse(exchange.requestBody.toString('utf8')) as unknown
    const nonce = body !== null && typeof body === 'object' ? (body as Record<string, unknown>).nonce : undefined
    return typeof nonce === 'string' && nonce !== '' ? nonce : null
  } catch {
    return null
  }
}

function headerText(value: string | readonly string[] | undefined): string | null {
  if (value === undefined) return null
  const text = typeof value === 'string' ? value : value[0]
  return text === undefined || text.trim() === '' ? null : text.trim()
}
