import { beforeAll, describe, expect, it } from 'vitest'

import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { rawRequest } from '../support/raw-http'
import type { RawResult } from '../support/raw-http'

function expectRawError(result: RawResult, status: number, code: string): void {
  expect({ status: result.status, error: result.body?.error }, result.text).toEqual({ status, error: code })
  expect(result.body).toMatchObject({ ok: false, message: expect.any(String) })
}

// The control plane's protection (docs/api.md section 6): admin token, loopback Host, own Origin.
describe('control plane guard', () => {
  let developerId: string
  let productId: string
  const emulator = useEmulator({ trustedOrigins: ['http://localhost:5173'] })
  beforeAll(async () => {
    const developer = await emulator.createDeveloper()
    developerId = developer.id
    productId = (await emulator.createProduct(developer.id)).id
  })

  const guarded = (): Array<[string, string, unknown]> => [
    ['GET', '/developers', undefined],
    ['POST', '/developers', { email: 'guard@example.test' }],
    ['POST', `/developers/${developerId}/session`, {}],
    ['GET', '/products', undefined],
    ['POST', '/products', { developerId, name: 'Guarded' }],
    ['POST', `/products/${productId}/legacy-credential`, {}],
    ['GET', `/products/${productId}/credentials`, undefined],
    ['GET', `/products/${productId}/audit`, undefined],
    ['GET', `/products/${productId}/connection`, undefined]
  ]

  it('answers health without a token', async () => {
    const health = await emulator.request('GET', '/_emulator/health')
    expect(health.status).toBe(200)
    expect(health.body).toEqual({
      ok: true,
      version: expect.any(String),
      uptimeS: expect.any(Number),
      storage: { writable: true }
    })
  })

  it('answers 401 AUTH_REQUIRED on every other route without x-emulator-token', async () => {
    for (const [method, path, body] of guarded()) {
      const result = await emulator.request(method, `/_emulator${path}`, { body })
      expectError(result, 401, 'AUTH_REQUIRED')
    }
    const empty = await emulator.request('GET', '/_emulator/developers', { headers: { 'x-emulator-token': '' } })
    expectError(empty, 401, 'AUTH_REQUIRED')
  })

  it('answers 401 INVALID_TOKEN on every other route with a wrong x-emulator-token', async () => {
    for (const [method, path, body] of guarded()) {
      for (const token of ['wrong', `${emulator.adminToken}x`, emulator.adminToken.slice(0, -1)]) {
        expectError(await emulator.control(method, path, body, { 'x-emulator-token': token }), 401, 'INVALID_TOKEN')
      }
    }
    // Nothing got through: no developer or product was made.
    const developers = await emulator.control('GET', '/developers')
    expect(developers.body.developers.map((d: { email: string }) => d.email)).not.toContain('guard@example.test')
    const products = await emulator.control('GET', '/products')
    expect(products.body.products.map((p: { name: string }) => p.name)).not.toContain('Guarded')
  })

  it('does not accept a developer JWT in place of the admin token', async () => {
    const developer = await emulator.createDeveloper({ role: 'admin' })
    const result = await emulator.request('GET', '/_emulator/developers', { token: developer.token })
    expectError(result, 401, 'AUTH_REQUIRED')
  })

  it('answers 403 HOST_NOT_ALLOWED for a non-loopback Host, even with the right token and on health', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${new URL(emulator.baseUrl).port}`,
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      '10.0.0.1'
    ]) {
      const withToken = await rawRequest(emulator.baseUrl, {
        method: 'GET',
        path: '/_emulator/developers',
        headers: { host, 'x-emulator-token': emulator.adminToken }
      })
      expectRawError(withToken, 403, 'HOST_NOT_ALLOWED')
      expectRawError(
        await rawRequest(emulator.baseUrl, { method: 'GET', path: '/_emulator/health', headers: { host } }),
        403,
        'HOST_NOT_ALLOWED'
      )
    }
  })

  it('accepts the loopback names 127.0.0.1, localhost and [::1] as Host', async () => {
    const port = new URL(emulator.baseUrl).port
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, 'localhost']) {
      const result = await rawRequest(emulator.baseUrl, {
        method: 'GET',
        path: '/_emulator/developers',
        headers: { host, 'x-emulator-token': emulator.adminToken }
      })
      expect(result.status, host).toBe(200)
    }
  })

  it('answers 403 ORIGIN_NOT_ALLOWED for a foreign Origin, even with the right token', async () => {
    for (const origin of [
      'http://evil.example',
      'https://127.0.0.1',
      'null',
      `http://127.0.0.1:${Number(new URL(emulator.baseUrl).port) + 1}`
    ]) {
      const result = await rawRequest(emulator.baseUrl, {
        method: 'POST',
        path: '/_emulator/developers',
        headers: { origin, 'x-emulator-token': emulator.adminToken, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'csrf@example.test' })
      })
      expectRawError(result, 403, 'ORIGIN_NOT_ALLOWED')
    }
    const developers = await emulator.control('GET', '/developers')
    expect(developers.body.developers.map((d: { email: string }) => d.email)).not.toContain('csrf@example.test')
  })

  it("allows the server's own origin and a trusted origin", async () => {
    for (const origin of [emulator.baseUrl, 'http://localhost:5173']) {
      const result = await rawRequest(emulator.baseUrl, {
        method: 'GET',
        path: '/_emulator/developers',
        headers: { origin, 'x-emulator-token': emulator.adminToken }
      })
      expect(result.status, origin).toBe(200)
    }
  })
})
