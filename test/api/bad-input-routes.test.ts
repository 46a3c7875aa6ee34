import { beforeAll, describe, expect, it } from 'vitest'

import { CREDENTIALS_BASE, expectError, ownedProduct } from '../support/credentials'
import type { OwnedProduct } from '../support/credentials'
import { storedState } from '../support/database'
import { useEmulator } from '../support/emulator'

// Unknown routes and odd path parameters: the contract's envelope, never a 500.
describe('unknown routes and odd path parameters', () => {
  let owned: OwnedProduct
  const emulator = useEmulator()
  beforeAll(async () => {
    owned = await ownedProduct(emulator)
  })

  it.each([
    ['GET', '/no/such/route'],
    ['POST', '/api/nothing-here'],
    ['POST', `${CREDENTIALS_BASE}/prod_x/delete`],
    ['GET', '/_emulator/nope']
  ])('%s %s answers 404 NOT_FOUND', async (method, path) => {
    const result = await emulator.request(method, path, { token: owned.developer.token })
    expectError(result, 404, 'NOT_FOUND')
  })

  // A path some route takes, with a method it does not: 405 naming the methods in Allow (RFC 9110).
  it.each([
    ['DELETE', `${CREDENTIALS_BASE}/prod_x`, 'GET, HEAD, POST'],
    ['PUT', `${CREDENTIALS_BASE}/prod_x`, 'GET, HEAD, POST'],
    ['PATCH', `${CREDENTIALS_BASE}/prod_x/revoke`, 'POST'],
    ['GET', `${CREDENTIALS_BASE}/prod_x/rotate-key`, 'POST'],
    ['GET', '/api/plugin-connections/verify', 'POST'],
    ['DELETE', '/api/license/v1/activate', 'POST']
  ])('%s %s answers 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
    const result = await emulator.request(method, path, { token: owned.developer.token })
    expectError(result, 405, 'METHOD_NOT_ALLOWED')
    expect(result.headers.get('allow')).toBe(allow)
    expect(result.body.message).toContain(allow)
  })

  it('does not echo the query string of an unknown route', async () => {
    const result = await emulator.request('GET', '/nope?token=sk_DoNotEchoThisValue1234567890')
    expectError(result, 404, 'NOT_FOUND')
    expect(result.text).not.toContain('sk_DoNotEchoThisValue1234567890')
  })

  it.each(['ü✓🎹', '日本語の製品', 'a/b', 'a;b', '\u0000', "'; DROP TABLE products; --", ' '])(
    'a product ID of %j answers 404 PRODUCT_NOT_FOUND, not a 500',
    async (productId) => {
      const before = storedState(emulator.databasePath)
      const path = `${CREDENTIALS_BASE}/${encodeURIComponent(productId)}`
      expectError(await emulator.request('GET', path, { token: owned.developer.token }), 404, 'PRODUCT_NOT_FOUND')
      expectError(
        await emulator.request('POST', `${path}/ensure`, { token: owned.developer.token, body: {} }),
        404,
        'PRODUCT_NOT_FOUND'
      )
      const listed = await emulator.request('GET', `${CREDENTIALS_BASE}?productId=${encodeURIComponent(productId)}`, {
        token: owned.developer.token
      })
      expect(listed.status).toBe(200)
      expect(listed.body.count).toBe(0)
      expect(storedState(emulator.databasePath)).toEqual(before)
    }
  )

  it('answers 400 VALIDATION_ERROR for a product ID over 200 characters', async () => {
    expectError(
      await emulator.request('GET', `${CREDENTIALS_BASE}/${'x'.repeat(201)}`, { token: owned.developer.token }),
      400,
      'VALIDATION_ERROR'
    )
  })

  // Fastify raises these before routing; build-server's `frameworkErrors` keeps the contract's shape.
  it('answers a malformed percent-encoding in the path with the contract envelope', async () => {
    const result = await emulator.request('GET', `${CREDENTIALS_BASE}/%E0%A4%A`, { token: owned.developer.token })
    expectError(result, 400, 'VALIDATION_ERROR')
  })

  it('answers a path parameter over the router limit (500 characters) with the contract envelope', async () => {
    const result = await emulator.request('GET', `${CREDENTIALS_BASE}/${'x'.repeat(600)}`, {
      token: owned.developer.token
    })
    expect(result.status).toBeGreaterThanOrEqual(400)
    expect(result.status).toBeLessThan(500)
    expect(result.body).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^[A-Z_]+$/),
      message: expect.any(String)
    })
  })
})
