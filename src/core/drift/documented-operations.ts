/**
 * The emulator's own contract as the drift check reads it: the operations of its OpenAPI
 * document (/openapi.json, generated from the TypeBox schemas in src/shared), each with the
 * responses it declares. The service API only: the control plane is the emulator's own.
 */

/** A JSON Schema node of the document (OpenAPI 3.1 = JSON Schema 2020-12), walked by key. */
export type SchemaNode = Readonly<Record<string, unknown>>

export interface DocumentedResponse {
  /** Media types the answer declares, each with its schema when it has one. */
  readonly content: Readonly<Record<string, { readonly schema?: SchemaNode }>>
  /** Header names the answer declares (lower-case). */
  readonly headers: readonly string[]
}

export interface DocumentedOperation {
  readonly operationId: string
  readonly method: string
  /** The path template as docs/api.md writes it (`/api/downloads/:fileId`). */
  readonly path: string
  readonly pattern: RegExp
  readonly templated: boolean
  /** By status key as the document has them: `200`, `2XX`, `default`. */
  readonly responses: Readonly<Record<string, DocumentedResponse>>
}

export interface DocumentedContract {
  readonly operations: readonly DocumentedOperation[]
  /** The operation a request went to, or null when the document has none for it. */
  operationOf(method: string, path: string): DocumentedOperation | null
  /** The declared answer for a status: the exact one, then its class (`4XX`), then `default`. */
  responseOf(operation: DocumentedOperation, status: number): DocumentedResponse | null
  /** A `$ref` inside the document, resolved (null when it points nowhere). */
  resolve(ref: string): SchemaNode | null
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

export function documentedContract(document: unknown): DocumentedContract {
  const root = isObject(document) ? document : {}
  const paths = isObject(root.paths) ? root.paths : {}
  const operations: DocumentedOperation[] = []
  for (const [template, item] of Object.entries(paths)) {
    if (template.startsWith('/_emulator') || !isObject(item)) continue
    for (const method of METHODS) {
      const operation = item[method]
      if (!isObject(operation)) continue
      operations.push({
        operationId: typeof operation.operationId === 'string' ? operation.operationId : `${method} ${template}`,
        method: method.toUpperCase(),
        path: template.replace(/\{([^}]+)\}/g, ':$1'),
        pattern: patternOf(template),
        templated: template.includes('{'),
        responses: responsesOf(operation.responses)
      })
    }
  }
  // A literal path before a templated one that also matches it.
  const ordered = [...operations].sort((a, b) => Number(a.templated) - Number(b.templated))

  return {
    operations,
    operationOf(method, path) {
      const verb = method.toUpperCase()
      return ordered.find((operation) => operation.method === verb && operation.pattern.test(path)) ?? null
    },
    responseOf(operation, status) {
      const keys = [String(status), `${String(status).charAt(0)}XX`, 'default']
      for (const key of keys) {
        const response = operation.responses[key]
        if (response) return response
      }
      return null
    },
    resolve(ref) {
      if (!ref.startsWith('#/')) return null
      let node: unknown = root
      for (const raw of ref.slice(2).split('/')) {
        const part = raw.replace(/~1/g, '/').replace(/~0/g, '~')
        if (!isObject(node)) return null
        node = node[part]
      }
      return isObject(node) ? node : null
    }
  }
}

function patternOf(template: string): RegExp {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^/]+?\\\}/g, '[^/]+')
  return new RegExp(`^${escaped}/?$`)
}

function responsesOf(value: unknown): Record<string, DocumentedResponse> {
  const out: Record<string, DocumentedResponse> = {}
  if (!isObject(value)) return out
  for (const [status, response] of Object.entries(value)) {
    if (!isObject(response)) continue
    const content: Record<string, { schema?: SchemaNode }> = {}
    if (isObject(response.content)) {
      for (const [media, entry] of Object.entries(response.content)) {
        content[media.toLowerCase()] = isObject(entry) && isObject(entry.schema) ? { schema: entry.schema } : {}
      }
    }
    const headers = isObject(response.headers) ? Object.keys(response.headers).map((name) => name.toLowerCase()) : []
    out[status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase()] = { content, headers }
  }
  return out
}
