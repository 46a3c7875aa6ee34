import { beforeAll, describe, expect, it } from 'vitest'

import {
  addFile,
  createCustomer,
  customerSession,
  getLibrary,
  libraryTokenOf,
  purchase,
  resellerOrder
} from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { productWithCredential } from '../support/plugin-client'

// docs/api.md section 1 on the library, claim and download routes: bad input is a 4xx in the error envelope
// (400 VALIDATION_ERROR, 413 PAYLOAD_TOO_LARGE), never a 500, never a silent coercion.
describe('library, claim and downloads: bad input', () => {
  let libraryToken: string
  let session: string
  let fileId: string
  let productId: string

  const emu = useEmulator({ bodyLimit: 32 * 1024 })
  beforeAll(async () => {
    const product = await productWithCredential(emu, 'Bad Input Bass')
    productId = product.productId
    fileId = (await addFile(emu, productId, { sizeBytes: 100 })).id
    const customer = await createCustomer(emu)
    await purchase(emu, customer.id, productId)
    libraryToken = await libraryTokenOf(emu, customer.id)
    session = await customerSession(emu, customer.id)
  })

  const claimRaw = (rawBody: string, contentType = 'application/json', query = '') =>
    emu.request('POST', `/api/library/claim${query}`, {
      token: session,
      headers: { 'content-type': contentType },
      rawBody
    })

  describe('GET /api/library', () => {
    it('unknown query parameters (a cache buster, utm tags) are ignored, not refused', async () => {
      const result = await getLibrary(emu, libraryToken, { surprise: '1', _: '123', utm_source: 'mail' })
      expect(result.status, result.text).toBe(200)
      expect(result.body.ok).toBe(true)
    })

    it('over-long values are 400 VALIDATION_ERROR', async () => {
      expectError(await getLibrary(emu, undefined, { token: 't'.repeat(5000) }), 400, 'VALIDATION_ERROR')
      expectError(await getLibrary(emu, libraryToken, { instance_id: 'i'.repeat(201) }), 400, 'VALIDATION_ERROR')
      expectError(await getLibrary(emu, libraryToken, { storefront: 's'.repeat(201) }), 400, 'VALIDATION_ERROR')
    })

    it('a repeated parameter is a 4xx, not a 500', async () => {
      const result = await emu.request('GET', `/api/library?instance_id=a&instance_id=b`, { token: libraryToken })
      expect(result.status).toBeGreaterThanOrEqual(400)
      expect(result.status).toBeLessThan(500)
      expectError(result, result.status, result.body?.error as string)
      const tokens = await emu.request('GET', `/api/library?token=${libraryToken}&token=${libraryToken}`)
      expect(tokens.status).toBeGreaterThanOrEqual(400)
      expect(tokens.status).toBeLessThan(500)
    })

    it('an Authorization header that is not Bearer is no token', async () => {
      expectError(
        await emu.request('GET', '/api/library', { headers: { authorization: `Basic ${libraryToken}` } }),
        401,
        'LIBRARY_TOKEN_INVALID'
      )
      expectError(
        await emu.request('GET', '/api/library', { headers: { authorization: 'Bearer' } }),
        401,
        'LIBRARY_TOKEN_INVALID'
      )
    })
  })

  describe('POST /api/library/claim', () => {
    it('malformed JSON is 400 VALIDATION_ERROR', async () => {
      for (const raw of ['{"claim":', '{claim: "x"}', 'clm_abc'])
        expectError(await claimRaw(raw), 400, 'VALIDATION_ERROR')
    })

    it('a body that is not an object is 400 VALIDATION_ERROR', async () => {
      for (const raw of ['[]', '"clm_abc"', '1', 'null']) expectError(await claimRaw(raw), 400, 'VALIDATION_ERROR')
    })

    it('wrong types are 400 VALIDATION_ERROR, not coerced', async () => {
      for (const body of [{ claim: 123 }, { claim: ['clm_x'] }, { claim_token: true }, { claim: { token: 'x' } }]) {
        expectError(await claimRaw(JSON.stringify(body)), 400, 'VALIDATION_ERROR')
      }
      // An explicit null is "absent" (docs/api.md section 1): no claim token was sent.
      expectError(await claimRaw(JSON.stringify({ claim: null })), 400, 'LIBRARY_CLAIM_FAILED')
    })

    it('an unknown field is ignored: the claim goes through for the signed-in user', async () => {
      const order = await resellerOrder(emu, productId)
      expectError(await claimRaw('{}', 'application/json', '?claim=x&surprise=1'), 400, 'LIBRARY_CLAIM_FAILED')
      const result = await claimRaw(JSON.stringify({ claim: order.claimToken, account: 'someone-else' }))
      expect(result.status, result.text).toBe(200)
      expect(result.body.claimed).toBe(true)
    })

    it('an over-long claim token is 400 VALIDATION_ERROR', async () => {
      expectError(await claimRaw(JSON.stringify({ claim: 'c'.repeat(5000) })), 400, 'VALIDATION_ERROR')
    })

    it('a body over the size limit is 413 PAYLOAD_TOO_LARGE', async () => {
      expectError(await claimRaw(JSON.stringify({ claim: 'c'.repeat(64 * 1024) })), 413, 'PAYLOAD_TOO_LARGE')
    })

    it('a body that is not JSON is a 4xx in the error envelope', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const result = await claimRaw('claim=clm_abc', type)
        expect(result.status).toBeGreaterThanOrEqual(400)
        expect(result.status).toBeLessThan(500)
        expectError(result, result.status, result.body?.error as string)
      }
    })
  })

  describe('GET /api/downloads/:fileId', () => {
    it('an unknown query parameter is ignored', async () => {
      const result = await emu.request('GET', `/api/downloads/${fileId}?token=${libraryToken}&surprise=1&_=123`)
      expect(result.status).toBe(200)
    })

    it('an over-long file id or token is 400 VALIDATION_ERROR', async () => {
      expectError(
        await emu.request('GET', `/api/downloads/${'f'.repeat(300)}?token=${libraryToken}`),
        400,
        'VALIDATION_ERROR'
      )
      expectError(
        await emu.request('GET', `/api/downloads/${fileId}?token=${'t'.repeat(5000)}`),
        400,
        'VALIDATION_ERROR'
      )
    })

    it('odd file ids are a 4xx, not a 500', async () => {
      for (const id of ['%00', '..%2F..%2Fetc%2Fpasswd', "'%20OR%201=1", '%E2%9C%93']) {
        const result = await emu.request('GET', `/api/downloads/${id}?token=${libraryToken}`)
        expect(result.status, `${id}: ${result.text}`).toBeGreaterThanOrEqual(400)
        expect(result.status).toBeLessThan(500)
        expect(result.body?.ok).toBe(false)
      }
    })

    it('a POST to a download is 405 METHOD_NOT_ALLOWED in the envelope, with Allow', async () => {
      const result = await emu.request('POST', `/api/downloads/${fileId}?token=${libraryToken}`, { body: {} })
      expectError(result, 405, 'METHOD_NOT_ALLOWED')
      expect(result.headers.get('allow')).toBe('GET, HEAD')
    })
  })
})
