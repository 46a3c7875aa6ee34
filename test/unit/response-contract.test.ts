import { describe, expect, it } from 'vitest'

import { responseContract } from '../support/response-contract'

// The API tests' response validator (test/support/response-contract.ts) must really refuse what
// the document does not declare: otherwise the API suite's check would pass vacuously.
const document = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/api/things/{id}': {
      get: {
        responses: {
          200: {
            description: 'ok',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ok', 'at'],
                  properties: { ok: { const: true }, at: { type: 'string', format: 'date-time' } }
                }
              }
            }
          },
          404: {
            description: 'missing',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } }
          }
        }
      }
    }
  },
  components: {
    schemas: {
      ErrorResponse: {
        type: 'object',
        required: ['ok', 'error', 'message'],
        properties: { ok: { const: false }, error: { type: 'string' }, message: { type: 'string' } }
      }
    }
  }
}
const json = 'application/json; charset=utf-8'

describe('responseContract', () => {
  const contract = responseContract(document)

  it('accepts an answer that matches its route, status and schema (query and trailing slash aside)', () => {
    expect(contract.check('GET', '/api/things/7?_=1', 200, json, { ok: true, at: '2026-01-01T00:00:00Z' })).toBeNull()
    expect(
      contract.check('GET', '/api/things/7/', 404, json, { ok: false, error: 'NOT_FOUND', message: 'm' })
    ).toBeNull()
  })

  it('refuses a body that breaks the schema, a bad format, and a $ref-ed error schema', () => {
    expect(contract.check('GET', '/api/things/7', 200, json, { ok: true })).toMatch(/does not match/)
    expect(contract.check('GET', '/api/things/7', 200, json, { ok: true, at: 'yesterday' })).toMatch(/does not match/)
    expect(contract.check('GET', '/api/things/7', 404, json, { ok: false, error: 'NOT_FOUND' })).toMatch(
      /does not match/
    )
  })

  it('refuses a status the operation does not declare', () => {
    expect(contract.check('GET', '/api/things/7', 500, json, { ok: false, error: 'INTERNAL', message: 'm' })).toMatch(
      /does not declare/
    )
  })

  it('holds undocumented paths to the one error shape', () => {
    expect(contract.check('GET', '/nowhere', 404, json, { ok: false, error: 'NOT_FOUND', message: 'm' })).toBeNull()
    expect(contract.check('GET', '/nowhere', 404, json, { nope: true })).toMatch(/not an ErrorResponse/)
  })
})
