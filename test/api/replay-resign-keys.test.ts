import { createRemoteJWKSet, decodeProtectedHeader, importSPKI, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { TOKEN_ISSUER } from '../../src/shared/contract/licensing'
import { createCustomer, purchase } from '../support/commerce'
import { startEmulator, useEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

const JWKS_PATH = '/.well-known/jwks.json'
const PUBLIC_KEY_PATH = '/api/license/v1/public-key'

// docs/upstream.md "Record, replay, reproduce", step 4: a re-signed token carries the replaying
// emulator's key, so while re-signing the key-publishing routes must publish that key, whatever
// the recording (or the upstream) holds; without re-signing the recorded keys replay.
describe('replaying a recording that fetched the keys, with and without re-signing', () => {
  let platform: TestEmulator
  const proxy = useEmulator()
  let credential: Awaited<ReturnType<typeof productWithCredential>>
  let licenseKey: string
  let licenseId: string
  let document: Record<string, any>
  let platformJwks: Record<string, any>

  beforeAll(async () => {
    platform = await startEmulator()
    await proxy.control('PUT', '/upstream', { url: platform.baseUrl })
    credential = await productWithCredential(platform, 'Keyed Synth')
    const customerId = (await createCustomer(platform)).id
    const bought = await purchase(platform, customerId, credential.productId)
    licenseKey = bought.license.key
    licenseId = bought.license.id
    platformJwks = (await platform.request('GET', JWKS_PATH)).body

    const started = await proxy.control('POST', '/recordings', { name: 'plugin verifying its token' })
    const recordingId = started.body.recording.id as string
    // What a verifying plugin does: activate, fetch the keys, validate with a nonce.
    expect((await pluginClient(proxy, credential).activate(licenseKey, 'machine-1')).status).toBe(201)
    expect((await proxy.request('GET', JWKS_PATH)).status).toBe(200)
    expect((await proxy.request('GET', PUBLIC_KEY_PATH)).status).toBe(200)
    expect((await pluginClient(proxy, credential).validate(licenseKey, 'machine-1', 'nonce-1')).status).toBe(200)
    for (let i = 0; i < 100; i++) {
      const list = await proxy.control('GET', '/recordings')
      if (list.body.recordings[0].exchanges >= 4) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await proxy.control('POST', `/recordings/${recordingId}/stop`)
    document = (await proxy.control('GET', `/recordings/${recordingId}`)).body.recording
    expect(document.exchanges.map((exchange: any) => exchange.request.path)).toEqual([
      '/api/license/v1/activate',
      JWKS_PATH,
      PUBLIC_KEY_PATH,
      '/api/license/v1/validate'
    ])
    await proxy.control('PUT', '/upstream', { url: null })
  }, 60_000)

  afterAll(async () => {
    await proxy.control('PUT', '/replay', { recording: null })
    await platform.close()
  })

  const validateLive = (nonce: string) => pluginClient(proxy, credential).validate(licenseKey, 'machine-1', nonce)

  it("without re-signing, answers the keys from the recording: the platform's, which its tokens match", async () => {
    expect((await proxy.control('PUT', '/replay', { recording: document, strict: true })).status).toBe(200)
    const jwks = await proxy.request('GET', JWKS_PATH)
    expect(jwks.headers.get('x-emulator-source')).toBe('recording')
    expect(jwks.body).toEqual(platformJwks)
    const publicKey = await proxy.request('GET', PUBLIC_KEY_PATH)
    expect(publicKey.headers.get('x-emulator-source')).toBe('recording')
    expect(publicKey.text).toBe(JSON.stringify(document.exchanges[2].response.body.json))
  })

  it("while re-signing, a plugin verifies the re-signed token with the replaying server's remote JWKS", async () => {
    const put = await proxy.control('PUT', '/replay', { recording: document, resign: true, strict: true })
    expect(put.body.replay).toMatchObject({ resign: true, strict: true })
    const answer = await validateLive('nonce-live')
    expect(answer.headers.get('x-emulator-replay')).toContain('resigned=1')
    const token = String(answer.body.license_token)
    const kid = decodeProtectedHeader(token).kid
    expect(platformJwks.keys.map((key: any) => key.kid)).not.toContain(kid)

    const jwks = await proxy.request('GET', JWKS_PATH)
    expect(jwks.status).toBe(200)
    expect(jwks.headers.get('x-emulator-source')).toBe('emulator')
    // The way a plugin fetches the keys: over HTTP from the server it talks to.
    const remote = createRemoteJWKSet(new URL(proxy.baseUrl + JWKS_PATH))
    const { payload } = await jwtVerify(token, remote, { audience: credential.appId, issuer: TOKEN_ISSUER })
    expect(payload).toMatchObject({ nonce: 'nonce-live', sub: licenseId })

    const publicKey = await proxy.request('GET', PUBLIC_KEY_PATH)
    expect(publicKey.status).toBe(200)
    expect(publicKey.headers.get('x-emulator-source')).toBe('emulator')
    expect(publicKey.body.kid).toBe(kid)
    const spki = await importSPKI(String(publicKey.body.public_key_pem), 'EdDSA')
    await expect(jwtVerify(token, spki, { audience: credential.appId })).resolves.toBeTruthy()
  })

  it('while re-signing, strict mode does not refuse a key route nobody recorded', async () => {
    const withoutKeys = structuredClone(document)
    withoutKeys.exchanges = withoutKeys.exchanges.filter((exchange: any) => exchange.request.path !== PUBLIC_KEY_PATH)
    await proxy.control('PUT', '/replay', { recording: withoutKeys, strict: true })
    // Without re-signing strict mode refuses it as any unrecorded request...
    const refused = await proxy.request('GET', PUBLIC_KEY_PATH)
    expect(refused.status).toBe(404)
    expect(refused.body.error).toBe('NO_RECORDED_MATCH')
    // ...while re-signing it is the emulator's own key, the one the tokens are signed with.
    await proxy.control('PUT', '/replay', { recording: withoutKeys, strict: true, resign: true })
    const publicKey = await proxy.request('GET', PUBLIC_KEY_PATH)
    expect(publicKey.status).toBe(200)
    const token = String((await validateLive('nonce-2')).body.license_token)
    expect(publicKey.body.kid).toBe(decodeProtectedHeader(token).kid)
  })

  it("while re-signing with an upstream set, the keys are the emulator's own, not forwarded", async () => {
    // Recorded keys left out: a key route the recording does not answer would otherwise be forwarded.
    const withoutKeys = structuredClone(document)
    withoutKeys.exchanges = withoutKeys.exchanges.filter((exchange: any) => exchange.request.method !== 'GET')
    await proxy.control('PUT', '/upstream', { url: platform.baseUrl })
    try {
      await proxy.control('PUT', '/replay', { recording: withoutKeys, resign: true })
      const token = String((await validateLive('nonce-3')).body.license_token)
      const jwks = await proxy.request('GET', JWKS_PATH)
      expect(jwks.headers.get('x-emulator-source')).toBe('emulator')
      expect(jwks.body).not.toEqual(platformJwks)
      const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(proxy.baseUrl + JWKS_PATH)), {
        audience: credential.appId
      })
      expect(payload.nonce).toBe('nonce-3')
    } finally {
      await proxy.control('PUT', '/upstream', { url: null })
    }
  })
})
