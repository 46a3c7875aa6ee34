import { beforeAll, describe, expect, it } from 'vitest'

import { CREDENTIAL_ACTIONS, credentialPath, expectError, issueCredential, ownedProduct } from '../support/credentials'
import type { OwnedProduct } from '../support/credentials'
import { storedState } from '../support/database'
import { useEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'

// Bad bodies on the management POSTs: a 4xx in the contract's envelope, never a 500, and nothing stored.
describe('bad input on the management endpoints', () => {
  let owned: OwnedProduct
  const emulator = useEmulator()
  beforeAll(async () => {
    owned = await ownedProduct(emulator)
    await issueCredential(owned.api, owned.product.id)
  })

  const postPaths = (): string[] => [
    credentialPath(owned.product.id),
    ...CREDENTIAL_ACTIONS.map((action) => credentialPath(owned.product.id, action))
  ]
  const postRaw = (path: string, rawBody: string, contentType = 'application/json'): Promise<HttpResult> =>
    emulator.request('POST', path, { token: owned.developer.token, rawBody, headers: { 'content-type': contentType } })

  const expectValidationError = (result: HttpResult, label: string): void => {
    expect(result.status, `${label}: ${result.text}`).toBe(400)
    expectError(result, 400, 'VALIDATION_ERROR')
  }

  it('answers 400 VALIDATION_ERROR for malformed JSON', async () => {
    const before = storedState(emulator.databasePath)
    for (const path of postPaths()) {
      for (const raw of [
        '{"reason": ',
        '{reason: "x"}',
        "{'reason': 'x'}",
        '{"reason": "x",}',
        'undefined',
        '\u0000'
      ]) {
        expectValidationError(await postRaw(path, raw), `${path} ${JSON.stringify(raw)}`)
      }
    }
    expect(storedState(emulator.databasePath)).toEqual(before)
  })

  it('answers 400 VALIDATION_ERROR with details for wrong types, never coercing them', async () => {
    const before = storedState(emulator.databasePath)
    const wrong: unknown[] = [
      { reason: 123 },
      { reason: true },
      // { reason: null } and { metadata: null } are "absent" (docs/api.md section 1): edges.test.ts.
      { reason: ['x'] },
      { reason: { text: 'x' } },
      { metadata: 'x' },
      { metadata: [1, 2] },
      { metadata: 5 },
      [],
      'a string',
      42,
      null
    ]
    for (const path of postPaths()) {
      for (const body of wrong) {
        const result = await postRaw(path, JSON.stringify(body))
        expectValidationError(result, `${path} ${JSON.stringify(body)}`)
        expect(Array.isArray(result.body.details)).toBe(true)
        expect(result.body.details[0]).toMatchObject({
          location: 'body',
          path: expect.any(String),
          problem: expect.any(String)
        })
      }
    }
    expect(storedState(emulator.databasePath)).toEqual(before)
  })

  it('ignores unknown fields (docs/api.md section 8), while a bad value of a known one stays 400', async () => {
    const ensured = await postRaw(
      credentialPath(owned.product.id, 'ensure'),
      JSON.stringify({ reason: 'ok', productId: owned.product.id, force: true })
    )
    expect(ensured.status, ensured.text).toBe(200)
    expect(ensured.body.created).toBe(false)
    const before = storedState(emulator.databasePath)
    for (const path of postPaths()) {
      const result = await postRaw(path, JSON.stringify({ reason: 42, force: true }))
      expectValidationError(result, path)
      expect(result.body.details.map((d: { path?: string }) => d.path)).toEqual(['/reason'])
    }
    expect(storedState(emulator.databasePath)).toEqual(before)
  })

  it('answers 400 VALIDATION_ERROR for a reason over 1000 characters and for oversized or deep metadata', async () => {
    const before = storedState(emulator.databasePath)
    const manyKeys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))
    const bodies = [
      JSON.stringify({ reason: 'x'.repeat(1001) }),
      JSON.stringify({ metadata: { blob: 'x'.repeat(5000) } }),
      JSON.stringify({ metadata: manyKeys }),
      // 100 000 levels of nesting in 200 KB: must not blow the stack into a 500.
      `{"metadata":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`
    ]
    for (const path of postPaths()) {
      for (const body of bodies) expectValidationError(await postRaw(path, body), `${path} ${body.slice(0, 30)}`)
    }
    expect(storedState(emulator.databasePath)).toEqual(before)
    expect(emulator.logOutput()).not.toContain('unhandled error')
  })

  it('answers 413 PAYLOAD_TOO_LARGE for a body over 1 MiB', async () => {
    const before = storedState(emulator.databasePath)
    const body = JSON.stringify({ reason: 'x', metadata: { blob: 'y'.repeat(1024 * 1024) } })
    for (const path of postPaths()) expectError(await postRaw(path, body), 413, 'PAYLOAD_TOO_LARGE')
    expect(storedState(emulator.databasePath)).toEqual(before)
  })

  it('answers 415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
    const before = storedState(emulator.databasePath)
    for (const path of postPaths()) {
      for (const [contentType, raw] of [
        ['text/plain', '{"reason":"x"}'],
        ['application/x-www-form-urlencoded', 'reason=x'],
        ['application/xml', '<reason>x</reason>'],
        ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="reason"\r\n\r\nx\r\n--x--']
      ] as const) {
        const result = await postRaw(path, raw, contentType)
        expect(result.status, `${path} ${contentType}: ${result.text}`).toBe(415)
        expectError(result, 415, 'UNSUPPORTED_MEDIA_TYPE')
      }
    }
    expect(storedState(emulator.databasePath)).toEqual(before)
  })

  it('answers 400 VALIDATION_ERROR for a malformed query value on the list, and ignores an unknown parameter', async () => {
    const listed = await emulator.request('GET', '/api/developer/plugin-keys/products?foo=1&_=123', {
      token: owned.developer.token
    })
    expect(listed.status, listed.text).toBe(200)
    for (const query of ['?productId=', '?productId=a&productId=b', `?productId=${'x'.repeat(201)}`]) {
      const result = await emulator.request('GET', `/api/developer/plugin-keys/products${query}`, {
        token: owned.developer.token
      })
      expect(result.status, query).toBe(400)
      expectError(result, 400, 'VALIDATION_ERROR')
      expect(result.body.details[0].location).toBe('querystring')
    }
  })
})

describe('empty bodies on the management endpoints', () => {
  const emulator = useEmulator()

  it('accepts an empty body sent as application/json on every POST', async () => {
    const { product, developer } = await ownedProduct(emulator)
    const empty = (path: string) =>
      emulator.request('POST', path, {
        token: developer.token,
        rawBody: '',
        headers: { 'content-type': 'application/json' }
      })
    expect((await empty(credentialPath(product.id))).status).toBe(201)
    expect((await empty(credentialPath(product.id, 'ensure'))).status).toBe(200)
    expect((await empty(credentialPath(product.id, 'reveal-secret'))).status).toBe(200)
    expect((await empty(credentialPath(product.id, 'rotate-key'))).status).toBe(201)
    expect((await empty(credentialPath(product.id, 'rotate-secret'))).status).toBe(201)
    expect((await empty(credentialPath(product.id, 'revoke'))).status).toBe(200)
    expect((await empty(credentialPath(product.id, 'ensure'))).status).toBe(201)
  })

  it('accepts a POST with no body and no Content-Type', async () => {
    const { product, developer } = await ownedProduct(emulator)
    const result = await emulator.request('POST', credentialPath(product.id, 'ensure'), { token: developer.token })
    expect(result.status).toBe(201)
    expect(result.body.created).toBe(true)
  })

  it('accepts whitespace as an empty JSON body and an explicit empty object', async () => {
    const { product, developer } = await ownedProduct(emulator)
    const ws = await emulator.request('POST', credentialPath(product.id), {
      token: developer.token,
      rawBody: '  \n',
      headers: { 'content-type': 'application/json' }
    })
    expect(ws.status).toBe(201)
    const obj = await emulator.request('POST', credentialPath(product.id, 'revoke'), {
      token: developer.token,
      body: {}
    })
    expect(obj.status).toBe(200)
  })
})
