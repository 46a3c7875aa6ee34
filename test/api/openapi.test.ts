import { beforeAll, describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'

// GET /openapi.json: the OpenAPI 3.1 document of every route (docs/api.md section 7).
describe('OpenAPI document', () => {
  let document: Record<string, any>
  const emulator = useEmulator()
  beforeAll(async () => {
    const result = await emulator.request('GET', '/openapi.json')
    expect(result.status).toBe(200)
    expect(result.headers.get('content-type')).toMatch(/^application\/json/)
    document = result.body
  })

  const routes: Array<[string, string]> = [
    ['get', '/api/developer/plugin-keys/products'],
    ['get', '/api/developer/plugin-keys/products/{productId}'],
    ['post', '/api/developer/plugin-keys/products/{productId}'],
    ['post', '/api/developer/plugin-keys/products/{productId}/ensure'],
    ['post', '/api/developer/plugin-keys/products/{productId}/reveal-secret'],
    ['post', '/api/developer/plugin-keys/products/{productId}/rotate-key'],
    ['post', '/api/developer/plugin-keys/products/{productId}/rotate-secret'],
    ['post', '/api/developer/plugin-keys/products/{productId}/revoke'],
    ['post', '/api/plugin-connections/verify'],
    ['post', '/api/developer/plugin-keys'],
    ['post', '/api/developer/plugin-keys/reveal-secret'],
    ['get', '/.well-known/jwks.json'],
    ['get', '/_emulator/health'],
    ['post', '/_emulator/developers'],
    ['post', '/_emulator/developers/{id}/session'],
    ['post', '/_emulator/products'],
    ['post', '/_emulator/products/{id}/legacy-credential'],
    ['get', '/_emulator/products/{id}/audit'],
    ['get', '/_emulator/products/{id}/connection']
  ]

  it('is OpenAPI 3.1 with a title and version', () => {
    expect(document.openapi).toMatch(/^3\.1\./)
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) })
  })

  it.each(routes)('documents %s %s', (method, path) => {
    expect(Object.keys(document.paths ?? {})).toContain(path)
    expect(document.paths[path][method]).toBeDefined()
  })

  it('does not document a trailing-slash twin of the list path', () => {
    expect(Object.keys(document.paths)).not.toContain('/api/developer/plugin-keys/products/')
  })

  it('declares the content type each answer of GET /support has: the page as text/html, errors as JSON', async () => {
    const responses = document.paths['/support'].get.responses
    expect(Object.keys(responses['200'].content)).toEqual(['text/html'])
    for (const status of ['4XX', '5XX'])
      expect(Object.keys(responses[status].content), status).toEqual(['application/json'])
    const page = await emulator.request('GET', '/support')
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
  })

  it('declares every error answer of every operation as JSON in the contract shape (HTML pages included)', () => {
    const html: string[] = []
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries<Record<string, any>>(item)) {
        for (const [status, response] of Object.entries<Record<string, any>>(operation.responses)) {
          if (/^[45]/.test(status) && Object.keys(response.content ?? {}).some((type) => type !== 'application/json'))
            html.push(`${method} ${path} ${status}`)
        }
      }
    }
    expect(html).toEqual([])
  })

  it('marks the management endpoints as needing the developer JWT', () => {
    expect(document.components.securitySchemes.developerJwt).toMatchObject({ type: 'http', scheme: 'bearer' })
    const revoke = document.paths['/api/developer/plugin-keys/products/{productId}/revoke'].post
    expect(revoke.security).toEqual([{ developerJwt: [] }])
  })

  it('documents the fields of the library payload', () => {
    const library = document.paths['/api/library'].get.responses['200'].content['application/json'].schema
    expect(Object.keys(library.properties)).toEqual(expect.arrayContaining(['download_token', 'marketing_preferences']))
  })

  it('documents the 201 of create and rotate, and the 200/201 of ensure', () => {
    const base = '/api/developer/plugin-keys/products/{productId}'
    expect(Object.keys(document.paths[base].post.responses)).toContain('201')
    expect(Object.keys(document.paths[`${base}/rotate-key`].post.responses)).toContain('201')
    expect(Object.keys(document.paths[`${base}/ensure`].post.responses)).toEqual(expect.arrayContaining(['200', '201']))
  })
})
