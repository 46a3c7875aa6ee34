import { describe, expect, it } from 'vitest'

import { ApiError, toApiError } from '../../../src/renderer/src/api/errors'
import { buildUrl, createHttpClient } from '../../../src/renderer/src/api/http'
import type { FetchLike } from '../../../src/renderer/src/api/http'
import { credentialHeaders } from '../../../src/renderer/src/api/service'
import { maskBody, maskHeaders, toCurl } from '../../../src/renderer/src/screens/tester/exchange-mask'

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('the error type of every client', () => {
  it('carries the contract error, message, reason and details', () => {
    const error = ApiError.fromBody(409, {
      ok: false,
      error: 'PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE',
      message: 'Not recoverable.',
      recovery: { rotateKey: '/a', rotateSecret: '/b' }
    })
    expect(error).toBeInstanceOf(Error)
    expect(error.status).toBe(409)
    expect(error.code).toBe('PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE')
    expect(error.message).toBe('Not recoverable.')
    expect(error.reason).toBeNull()
    expect(error.details).toEqual({ recovery: { rotateKey: '/a', rotateSecret: '/b' } })
    expect(
      ApiError.fromBody(401, { ok: false, error: 'PLUGIN_CONNECTION_FAILED', message: 'x', reason: 'KEY_MISMATCH' })
        .reason
    ).toBe('KEY_MISMATCH')
  })

  it('still says something for a body that is not the envelope, and for thrown values', () => {
    expect(ApiError.fromBody(502, '<html>').code).toBe('BAD_RESPONSE')
    expect(ApiError.network(new Error('ECONNREFUSED')).message).toContain('ECONNREFUSED')
    expect(toApiError(new Error('boom')).code).toBe('CLIENT_ERROR')
    expect(toApiError('plain').message).toBe('plain')
  })
})

describe('the HTTP client', () => {
  it('builds URLs without empty query values', () => {
    expect(buildUrl('http://h:1/', '/a', { x: 'y z', empty: '', none: undefined, n: 2 })).toBe('http://h:1/a?x=y+z&n=2')
  })

  it('records the exchange and throws ApiError from json()', async () => {
    const calls: { url: string; init?: RequestInit }[] = []
    const fetch: FetchLike = async (url, init) => {
      calls.push({ url, init })
      return url.endsWith('/fail')
        ? json(404, { ok: false, error: 'PRODUCT_NOT_FOUND', message: 'No product.' })
        : json(200, { ok: true, value: 1 })
    }
    const http = createHttpClient({ baseUrl: 'http://127.0.0.1:9', fetch, headers: { 'x-emulator-token': 't' } })
    expect(await http.json({ method: 'GET', path: '/ok' })).toEqual({ ok: true, value: 1 })
    const exchange = await http.exchange({ method: 'POST', path: '/fail', body: { a: 1 } })
    expect(exchange.request).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9/fail', body: { a: 1 } })
    expect(exchange.request.headers['content-type']).toBe('application/json')
    expect(exchange.response?.status).toBe(404)
    expect(exchange.error?.code).toBe('PRODUCT_NOT_FOUND')
    await expect(http.json({ method: 'GET', path: '/fail' })).rejects.toMatchObject({
      code: 'PRODUCT_NOT_FOUND',
      status: 404
    })
    expect(calls[0]?.init?.headers).toMatchObject({ 'x-emulator-token': 't' })
  })

  it('treats ok:false in a 200 as a failure, and a dropped connection as NETWORK_ERROR', async () => {
    const http = createHttpClient({
      baseUrl: 'http://x',
      fetch: async () => json(200, { ok: false, error: 'ODD', message: 'odd' })
    })
    await expect(http.json({ method: 'GET', path: '/' })).rejects.toMatchObject({ code: 'ODD' })
    const down = createHttpClient({
      baseUrl: 'http://x',
      fetch: async () => {
        throw new TypeError('fetch failed')
      }
    })
    const exchange = await down.exchange({ method: 'GET', path: '/' })
    expect(exchange.response).toBeNull()
    expect(exchange.error?.code).toBe('NETWORK_ERROR')
  })
})

describe('what the connection tester shows of a request', () => {
  it('names the credential headers after the prefix', () => {
    expect(credentialHeaders('ACME', { appId: 'a', pluginKey: 'k', pluginSecret: 's' })).toEqual({
      'x-acme-app-id': 'a',
      'x-acme-plugin-key': 'k',
      'x-acme-plugin-secret': 's'
    })
  })

  it('masks keys, secrets and bearer tokens until asked', () => {
    expect(
      maskHeaders({
        'x-svc-app-id': 'app_1',
        'x-svc-plugin-secret': 'sk_abcdefghijklmnop',
        authorization: 'Bearer eyJabc.def.ghi'
      })
    ).toEqual({
      'x-svc-app-id': 'app_1',
      'x-svc-plugin-secret': 'sk_••••••••mnop',
      authorization: 'Bearer ••••••••.ghi'
    })
    expect(
      maskBody({ productId: 'p', pluginKey: 'pk_abcdefghijkl', nested: { pluginSecret: 'sk_abcdefghijkl' } })
    ).toEqual({
      productId: 'p',
      pluginKey: 'pk_••••••••ijkl',
      nested: { pluginSecret: 'sk_••••••••ijkl' }
    })
  })

  it('copies a request as a curl command with shell quoting', () => {
    expect(
      toCurl({
        method: 'POST',
        url: 'http://h/v',
        headers: { accept: 'application/json', 'x-a': "it's" },
        body: { a: 1 }
      })
    ).toBe(`curl -X POST 'http://h/v' \\\n  -H 'x-a: it'\\''s' \\\n  --data '{"a":1}'`)
  })
})
