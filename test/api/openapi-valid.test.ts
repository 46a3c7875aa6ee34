import SwaggerParser from '@apidevtools/swagger-parser'
import { beforeAll, describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'

// The OpenAPI document is checked by an independent validator (@apidevtools/swagger-parser: the
// OpenAPI 3.1 schema plus its own rules), and declares each route's specific error answers.
describe('GET /openapi.json, checked by an independent validator', () => {
  let document: Record<string, any>
  const emu = useEmulator()
  beforeAll(async () => {
    document = (await emu.request('GET', '/openapi.json')).body
  })

  it('validates with zero errors', async () => {
    // validate() dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined()
  })

  it('really checks: a copy with a response missing its description and a dangling $ref is refused', async () => {
    const broken = structuredClone(document)
    delete broken.paths['/api/library'].get.responses['200'].description
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow()
    const dangling = structuredClone(document)
    dangling.paths['/api/library'].get.responses['401'].content['application/json'].schema = {
      $ref: '#/components/schemas/Nope'
    }
    await expect(SwaggerParser.validate(dangling as never)).rejects.toThrow()
  })

  it('every service operation declares at least one specific error answer with an example', () => {
    const bare: string[] = []
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      if (!path.startsWith('/api/') || path === '/api/license/v1/public-key') continue
      for (const [method, operation] of Object.entries<Record<string, any>>(item)) {
        const specific = Object.entries<Record<string, any>>(operation.responses).filter(([status]) =>
          /^[45]\d\d$/.test(status)
        )
        const withExamples = specific.filter(
          ([, response]) => Object.keys(response.content?.['application/json']?.examples ?? {}).length > 0
        )
        if (withExamples.length === 0 || withExamples.length !== specific.length) bare.push(`${method} ${path}`)
      }
    }
    expect(bare).toEqual([])
  })

  it('documents request bodies of the service API as open (unknown fields ignored) and the control plane as closed', () => {
    const bodySchema = (path: string) => document.paths[path].post.requestBody.content['application/json'].schema
    expect(bodySchema('/api/license/v1/validate').additionalProperties).toBe(true)
    expect(bodySchema('/_emulator/customers').additionalProperties).toBe(false)
  })

  const example = (path: string, method: string, status: string, code: string) => {
    const response = document.paths[path]?.[method]?.responses?.[status]
    expect(response, `${method} ${path} ${status}`).toBeDefined()
    // The shared envelope, narrowed to this status's codes, with the detail keys they carry declared.
    const schema = response.content['application/json'].schema
    expect(schema.allOf[0]).toEqual({ $ref: '#/components/schemas/ErrorResponse' })
    expect(schema.allOf[1].description).toContain(code)
    const value = response.content['application/json'].examples?.[code]?.value
    for (const key of Object.keys(value ?? {}).filter((k) => !['ok', 'error', 'message'].includes(k))) {
      expect(schema.allOf[1].properties[key], `${status} ${code} declares ${key}`).toEqual({
        $ref: `#/components/schemas/ErrorResponse/properties/${key}`
      })
    }
    expect(value, `${method} ${path} ${status} ${code}`).toMatchObject({
      ok: false,
      error: code,
      message: expect.any(String)
    })
    return value as Record<string, unknown>
  }

  it('410 LEGACY_PLUGIN_KEYS_RETIRED with replacement on the retired routes', () => {
    for (const [path, method] of [
      ['/api/developer/plugin-keys', 'post'],
      ['/api/developer/plugin-keys/reveal-secret', 'post']
    ] as const) {
      expect(example(path, method, '410', 'LEGACY_PLUGIN_KEYS_RETIRED').replacement).toBe(
        '/api/developer/plugin-keys/products/:productId'
      )
    }
  })

  it('409 PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE with recovery on reveal-secret; 409 ACTIVE_CREDENTIAL_EXISTS on create', () => {
    const base = '/api/developer/plugin-keys/products/{productId}'
    const unavailable = example(`${base}/reveal-secret`, 'post', '409', 'PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE')
    expect(unavailable.recovery).toEqual({
      rotateKey: expect.stringMatching(/\/rotate-key$/),
      rotateSecret: expect.stringMatching(/\/rotate-secret$/)
    })
    example(base, 'post', '409', 'ACTIVE_CREDENTIAL_EXISTS')
    for (const code of ['AUTH_REQUIRED', 'INVALID_TOKEN', 'TOKEN_EXPIRED'])
      example(`${base}/revoke`, 'post', '401', code)
    example(`${base}/rotate-key`, 'post', '403', 'PRODUCT_CREDENTIAL_NOT_ACCEPTED')
    example(base, 'get', '404', 'PRODUCT_CREDENTIAL_NOT_FOUND')
  })

  it('401 PLUGIN_CONNECTION_FAILED with reason on verify', () => {
    expect(example('/api/plugin-connections/verify', 'post', '401', 'PLUGIN_CONNECTION_FAILED')).toMatchObject({
      verified: false,
      reason: 'SECRET_MISMATCH'
    })
  })

  it('the library, claim, downloads and licensing answers', () => {
    example('/api/library', 'get', '401', 'LIBRARY_TOKEN_INVALID')
    expect(example('/api/library/claim', 'post', '400', 'LIBRARY_CLAIM_FAILED').reason).toBe('INVALID_CLAIM_TOKEN')
    expect(example('/api/library/claim', 'post', '409', 'LIBRARY_CLAIM_FAILED').reason).toBe('ALREADY_CLAIMED')
    example('/api/downloads/{fileId}', 'get', '403', 'ENTITLEMENT_REQUIRED')
    example('/api/license/v1/activate', 'post', '409', 'TOO_MANY_ACTIVATIONS')
    example('/api/license/v1/activate', 'post', '401', 'PRODUCT_CREDENTIAL_INVALID')
    example('/api/license/v1/deactivate', 'post', '404', 'NOT_ACTIVATED')
    example('/api/license/v1/webview-library', 'get', '401', 'LIBRARY_TOKEN_INVALID')
  })
})
