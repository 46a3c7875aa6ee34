import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { expectError } from '../support/credentials'
import { storedState } from '../support/database'
import { useEmulator } from '../support/emulator'
import { startUpstreamDouble } from '../support/upstream-double'
import type { UpstreamDouble } from '../support/upstream-double'

const validateBody = JSON.stringify({ license_key: 'PLE-NONE-0000', instance_id: 'compressed-client' })

// docs/api.md section 1: bodies the server cannot read as sent are refused saying why, not as "not valid JSON".
describe('request bodies refused for how they are sent', () => {
  const emulator = useEmulator()

  it('refuses a compressed body with 415 and Accept-Encoding: identity, storing nothing', async () => {
    const before = storedState(emulator.databasePath)
    for (const coding of ['gzip', 'br', 'deflate, gzip']) {
      const result = await emulator.request('POST', '/api/license/v1/validate', {
        rawBody: gzipSync(Buffer.from(validateBody)),
        headers: { 'content-type': 'application/json', 'content-encoding': coding }
      })
      expectError(result, 415, 'UNSUPPORTED_MEDIA_TYPE')
      expect(result.headers.get('accept-encoding')).toBe('identity')
      expect(result.body.message).toContain(`Content-Encoding: ${coding}`)
      expect(result.body.message).toContain('uncompressed')
    }
    expect(storedState(emulator.databasePath)).toEqual(before)
  })

  it('reads a body marked identity, and ignores the header where no body is read', async () => {
    const identity = await emulator.request('POST', '/api/license/v1/validate', {
      rawBody: validateBody,
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' }
    })
    // Past parsing: refused for the missing product credential, not for the body.
    expectError(identity, 401, 'PRODUCT_CREDENTIAL_INVALID')
    const get = await emulator.request('GET', '/api/license/v1/public-key', { headers: { 'content-encoding': 'gzip' } })
    expect(get.status).toBe(200)
  })

  it('names a __proto__ or constructor.prototype key as the reason a JSON body is refused', async () => {
    for (const rawBody of [
      '{"license_key":"PLE-NONE-0000","instance_id":"i","__proto__":{"admin":true}}',
      '{"license_key":"PLE-NONE-0000","instance_id":"i","constructor":{"prototype":{"admin":true}}}'
    ]) {
      const result = await emulator.request('POST', '/api/license/v1/validate', {
        rawBody,
        headers: { 'content-type': 'application/json' }
      })
      expectError(result, 400, 'VALIDATION_ERROR')
      expect(result.body.message).toContain('__proto__')
      expect(result.body.message).toContain('Rename the key')
    }
    // JSON that does not parse still says so.
    const broken = await emulator.request('POST', '/api/license/v1/validate', {
      rawBody: '{"license_key":',
      headers: { 'content-type': 'application/json' }
    })
    expectError(broken, 400, 'VALIDATION_ERROR')
    expect(broken.body.message).toBe('The request body is not valid JSON.')
  })
})

// docs/upstream.md: a forwarded body goes to the upstream as it came; only the upstream judges it.
describe('a compressed body on a forwarded call', () => {
  let upstream: UpstreamDouble
  beforeAll(async () => {
    upstream = await startUpstreamDouble()
  })
  afterAll(async () => upstream.close())
  const proxy = useEmulator(() => ({ upstream: { url: upstream.baseUrl } }))

  it('reaches the upstream byte for byte, Content-Encoding kept', async () => {
    const gzipped = gzipSync(Buffer.from(validateBody))
    upstream.answer((_request, response) => {
      response
        .writeHead(415, { 'content-type': 'application/json' })
        .end('{"ok":false,"error":"UNSUPPORTED_MEDIA_TYPE","message":"the upstream\'s own words"}')
    })
    const result = await proxy.request('POST', '/api/license/v1/validate', {
      rawBody: gzipped,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }
    })
    // The upstream's answer, not the emulator's refusal.
    expect(result.status).toBe(415)
    expect(result.body.message).toBe("the upstream's own words")
    expect(result.headers.get('x-emulator-source')).toBe('upstream')
    expect(upstream.received).toHaveLength(1)
    expect(upstream.received[0]?.headers['content-encoding']).toBe('gzip')
    expect(upstream.received[0]?.body.equals(gzipped)).toBe(true)
  })
})
