import { beforeAll, describe, expect, it } from 'vitest'

import { expectError, issueCredential, ownedProduct, verifyBody } from '../support/credentials'
import type { Material } from '../support/credentials'
import { storedState } from '../support/database'
import { useEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'

// Bad bodies on POST /api/plugin-connections/verify: 400/413/415 before any attempt is recorded.
describe('bad input on plugin connection verification', () => {
  let productId: string
  let material: Material
  const emulator = useEmulator()
  beforeAll(async () => {
    const owned = await ownedProduct(emulator)
    productId = owned.product.id
    material = (await issueCredential(owned.api, productId)).material
  })

  const post = (rawBody: string, contentType = 'application/json'): Promise<HttpResult> =>
    emulator.request('POST', '/api/plugin-connections/verify', { rawBody, headers: { 'content-type': contentType } })

  it('answers 400 VALIDATION_ERROR naming a missing required field', async () => {
    const before = storedState(emulator.databasePath)
    for (const field of ['productId', 'appId', 'pluginKey', 'pluginSecret']) {
      const body: Record<string, string> = verifyBody(productId, material)
      delete body[field]
      const result = await post(JSON.stringify(body))
      expectError(result, 400, 'VALIDATION_ERROR')
      expect(result.body.message).toContain(field)
      expect(result.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ location: 'body' })]))
    }
    expectError(await post(''), 400, 'VALIDATION_ERROR')
    expectError(await post('{}'), 400, 'VALIDATION_ERROR')
    expect(storedState(emulator.databasePath)).toEqual(before)
  })

  it('answers 400 VALIDATION_ERROR for wrong types and empty strings, also beside an unknown field', async () => {
    const before = storedState(emulator.databasePath)
    const good = verifyBody(productId, material)
    for (const body of [
      { ...good, productId: 12345 },
      { ...good, pluginSecret: true },
      { ...good, pluginKey: [material.pluginKey] },
      { ...good, appId: null },
      { ...good, pluginSecret: '' },
      { ...good, appId: 7, extra: 'field' },
      [good]
    ]) {
      const result = await post(JSON.stringify(body))
      expect(result.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expectError(result, 400, 'VALIDATION_ERROR')
      expect(result.text).not.toContain(material.pluginSecret)
    }
    expectError(await post('{"productId": "x", '), 400, 'VALIDATION_ERROR')
    expect(storedState(emulator.databasePath)).toEqual(before)
  })

  it('answers 413 for a body over 1 MiB and 415 for a body that is not JSON', async () => {
    const before = storedState(emulator.databasePath)
    expectError(
      await post(JSON.stringify({ ...verifyBody(productId, material), pluginSecret: 's'.repeat(1024 * 1024 + 1) })),
      413,
      'PAYLOAD_TOO_LARGE'
    )
    expectError(
      await post(JSON.stringify(verifyBody(productId, material)), 'text/plain'),
      415,
      'UNSUPPORTED_MEDIA_TYPE'
    )
    expectError(
      await post(new URLSearchParams(verifyBody(productId, material)).toString(), 'application/x-www-form-urlencoded'),
      415,
      'UNSUPPORTED_MEDIA_TYPE'
    )
    expect(storedState(emulator.databasePath)).toEqual(before)
  })

  it('still verifies the good credential afterwards', async () => {
    const result = await post(JSON.stringify(verifyBody(productId, material)))
    expect(result.status).toBe(200)
  })
})
