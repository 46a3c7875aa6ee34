import type { ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import Ajv2020 from 'ajv/dist/2020.js'

/**
 * The response validator of the API tests: every answer a test receives through the emulator
 * helper is checked against the OpenAPI document the server publishes, for that route, method
 * and status. An undeclared status, or a JSON body that does not match the declared schema, fails
 * the test that received it. Test-only: the server itself adds nothing to its request path.
 */
export interface ResponseContract {
  /** A sentence naming what is wrong, or null when the answer matches the document. */
  check(method: string, path: string, status: number, contentType: string | null, body: unknown): string | null
}

interface Operation {
  pattern: RegExp
  template: string
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>
}

export function responseContract(document: Record<string, any>): ResponseContract {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12. The whole document is registered once, so a
  // response schema's `#/components/schemas/...` references resolve inside it.
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false })
  addFormats(ajv)
  ajv.addSchema(document, 'openapi')
  const operations = new Map<string, Operation[]>()
  for (const [template, item] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    const pattern = new RegExp(
      `^${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^/]+?\\\}/g, '[^/]+')}/?$`
    )
    for (const [method, operation] of Object.entries<Record<string, any>>(item)) {
      const list = operations.get(method.toUpperCase()) ?? []
      list.push({ pattern, template, responses: operation.responses ?? {} })
      operations.set(method.toUpperCase(), list)
    }
  }
  const compiled = new Map<string, ValidateFunction>()
  const validatorOf = (pointer: string): ValidateFunction => {
    let validate = compiled.get(pointer)
    if (!validate) {
      validate = ajv.compile({ $ref: `openapi#${pointer}` })
      compiled.set(pointer, validate)
    }
    return validate
  }
  const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1')

  const errorPointer = '/components/schemas/ErrorResponse'
  return {
    check(method, path, status, contentType, body) {
      const pathname = path.split('?')[0] ?? path
      const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase()
      // Exact templates before templated ones: `/products/{id}/audit` and a literal `/products/files`.
      const candidates = (operations.get(method.toUpperCase()) ?? operations.get(verb) ?? []).filter((op) =>
        op.pattern.test(pathname)
      )
      const operation = candidates.sort(
        (a, b) => (a.template.includes('{') ? 1 : 0) - (b.template.includes('{') ? 1 : 0)
      )[0]
      const isJson =
        contentType !== null &&
        /^application\/json/i.test(contentType) &&
        body !== undefined &&
        method.toUpperCase() !== 'HEAD'
      if (!operation) {
        // Not a documented route (a 404, the UI, the document itself): errors still have the one error shape.
        if (status >= 400 && isJson) {
          const validate = validatorOf(errorPointer)
          return validate(body)
            ? null
            : `${method} ${pathname} ${status}: not an ErrorResponse: ${ajv.errorsText(validate.errors)}`
        }
        return null
      }
      const key = [String(status), `${String(status)[0]}XX`, 'default'].find(
        (k) => operation.responses[k] !== undefined
      )
      if (!key)
        return `${method} ${operation.template} answered ${status}, which its OpenAPI operation does not declare (declared: ${Object.keys(operation.responses).join(', ')})`
      if (!isJson) return null
      const media = operation.responses[key]?.content?.['application/json']
      if (!media?.schema) return null
      const pointer = `/paths/${escape(operation.template)}/${method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()}/responses/${key}/content/application~1json/schema`
      const validate = validatorOf(pointer)
      if (validate(body)) return null
      return `${method} ${operation.template} ${status}: the body does not match the declared schema (${key}): ${ajv.errorsText(validate.errors)}`
    }
  }
}
