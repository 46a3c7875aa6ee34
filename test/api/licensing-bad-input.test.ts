import { beforeAll, describe, expect, it } from 'vitest'

import { createCustomer, libraryTokenOf, purchase } from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// docs/api.md section 1: malformed JSON, wrong types, missing fields and unknown fields are 400 VALIDATION_ERROR,
// a body over the limit 413 PAYLOAD_TOO_LARGE; never a 500, never a silent coercion.
describe('/api/license/v1/*: bad input', () => {
  let product: PluginCredential
  let licenseKey: string
  let libraryToken: string
  let headers: Record<string, string>

  const emu = useEmulator({ bodyLimit: 64 * 1024 })
  beforeAll(async () => {
    product = await productWithCredential(emu, 'Bad Input Bus')
    const customer = await createCustomer(emu)
    licenseKey = (await purchase(emu, customer.id, product.productId)).license.key
    libraryToken = await libraryTokenOf(emu, customer.id)
    headers = pluginClient(emu, product).headers
  })

  const POST_ROUTES = ['activate', 'validate', 'deactivate', 'library-token', 'webview-library'] as const
  const post = (route: string, rawBody: string | Buffer, contentType = 'application/json') =>
    emu.request('POST', `/api/license/v1/${route}`, { headers: { ...headers, 'content-type': contentType }, rawBody })

  it.each(POST_ROUTES)('%s: malformed JSON is 400 VALIDATION_ERROR', async (route) => {
    for (const raw of ['{"license_key":', '{license_key: "x"}', "{'a':1}", '{"a":1}}', 'nul']) {
      expectError(await post(route, raw), 400, 'VALIDATION_ERROR')
    }
  })

  it.each(POST_ROUTES)('%s: a body that is not an object is 400 VALIDATION_ERROR', async (route) => {
    for (const raw of ['[]', '"license"', '42', 'true', 'null']) {
      expectError(await post(route, raw), 400, 'VALIDATION_ERROR')
    }
  })

  it.each(POST_ROUTES)('%s: an unknown field is ignored, not refused', async (route) => {
    const result = await post(route, JSON.stringify({ license_key: licenseKey, instance_id: 'm-1', surprise: 'field' }))
    expect(result.status, result.text).toBeLessThan(300)
    expect(result.body.ok).toBe(true)
  })

  it.each([
    ['license_key as a number', 'validate', { license_key: 12345 }],
    ['license_key as an array', 'validate', { license_key: ['AAAAA'] }],
    ['license_key as null', 'validate', { license_key: null }],
    ['license_key as an object', 'activate', { license_key: { key: 'x' }, instance_id: 'm' }],
    ['instance_id as a number', 'activate', { license_key: 'KEY', instance_id: 7 }],
    ['instance_id as a boolean', 'deactivate', { license_key: 'KEY', instance_id: true }],
    ['nonce as a number', 'validate', { license_key: 'KEY', nonce: 99 }],
    ['platform as an array', 'activate', { license_key: 'KEY', instance_id: 'm', platform: ['macos'] }],
    ['license_key as a number on library-token', 'library-token', { license_key: 1 }],
    ['library_token as a number on webview-library', 'webview-library', { library_token: 1 }],
    ['instance_id as an object on webview-library', 'webview-library', { license_key: 'KEY', instance_id: {} }]
  ])('wrong type (%s) is 400 VALIDATION_ERROR, not coerced', async (_label, route, body) => {
    const withKey = JSON.parse(JSON.stringify(body).replaceAll('"KEY"', JSON.stringify(licenseKey)))
    expectError(await post(route, JSON.stringify(withKey)), 400, 'VALIDATION_ERROR')
  })

  it.each([
    ['activate without instance_id', 'activate', { license_key: 'KEY' }],
    ['activate without license_key', 'activate', { instance_id: 'm' }],
    ['validate without license_key', 'validate', { instance_id: 'm' }],
    ['deactivate without instance_id', 'deactivate', { license_key: 'KEY' }],
    ['an empty license_key', 'validate', { license_key: '' }],
    ['an empty instance_id', 'activate', { license_key: 'KEY', instance_id: '' }],
    ['a 201-character license_key', 'validate', { license_key: 'K'.repeat(201) }],
    ['a 201-character instance_id', 'activate', { license_key: 'KEY', instance_id: 'i'.repeat(201) }]
  ])('%s is 400 VALIDATION_ERROR', async (_label, route, body) => {
    const withKey = JSON.parse(JSON.stringify(body).replaceAll('"KEY"', JSON.stringify(licenseKey)))
    expectError(await post(route, JSON.stringify(withKey)), 400, 'VALIDATION_ERROR')
  })

  it.each(POST_ROUTES)('%s: a body over the size limit is 413 PAYLOAD_TOO_LARGE', async (route) => {
    const huge = JSON.stringify({ license_key: licenseKey, instance_id: 'x'.repeat(200 * 1024) })
    expectError(await post(route, huge), 413, 'PAYLOAD_TOO_LARGE')
  })

  it.each(POST_ROUTES)('%s: a body that is not JSON is a 4xx in the error envelope', async (route) => {
    const result = await post(route, `license_key=${licenseKey}`, 'application/x-www-form-urlencoded')
    expect(result.status).toBeGreaterThanOrEqual(400)
    expect(result.status).toBeLessThan(500)
    expectError(result, result.status, result.body?.error as string)
    const text = await post(route, licenseKey, 'text/plain')
    expect(text.status).toBeGreaterThanOrEqual(400)
    expect(text.status).toBeLessThan(500)
    expectError(text, text.status, text.body?.error as string)
  })

  it('GET library-token and webview-library ignore unknown query parameters and refuse over-long values with 400 VALIDATION_ERROR', async () => {
    for (const route of ['library-token', 'webview-library']) {
      expect(
        (await emu.request('GET', `/api/license/v1/${route}?token=${libraryToken}&surprise=1&_=123&utm_source=mail`))
          .status
      ).toBe(200)
      expectError(
        await emu.request('GET', `/api/license/v1/${route}?license_key=${'K'.repeat(201)}`, { headers }),
        400,
        'VALIDATION_ERROR'
      )
      expectError(
        await emu.request('GET', `/api/license/v1/${route}?token=${'t'.repeat(5000)}`),
        400,
        'VALIDATION_ERROR'
      )
    }
  })

  it('a header value that is absurdly long is refused, not a 500', async () => {
    const result = await emu.request('POST', '/api/license/v1/validate', {
      headers: { ...headers, 'x-svc-plugin-secret': `sk_${'a'.repeat(8000)}` },
      body: { license_key: licenseKey }
    })
    expectError(result, 401, 'PRODUCT_CREDENTIAL_INVALID')
  })

  it('a well-formed request still works after all of that', async () => {
    const ok = await pluginClient(emu, product).validate(licenseKey)
    expect(ok.status).toBe(200)
    expect(ok.body.code).toBe('VALID')
  })
})
