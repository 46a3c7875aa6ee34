import { beforeAll, describe, expect, it } from 'vitest'

import { CREDENTIAL_ACTIONS, credentialPath, CREDENTIALS_BASE, expectError, ownedProduct } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import type { HttpResult } from '../support/emulator'
import { EMULATOR_ISSUER, emulatorSessionKey, foreignSessionKey, signToken, unsignedToken } from '../support/tokens'

// Management endpoints and the developer JWT (docs/api.md section 1): 401 AUTH_REQUIRED / INVALID_TOKEN.
describe('developer JWT on the management API', () => {
  let productId: string
  let developerId: string
  const emulator = useEmulator()
  beforeAll(async () => {
    const owned = await ownedProduct(emulator)
    productId = owned.product.id
    developerId = owned.developer.id
  })

  /** Every management endpoint, called with the given headers. */
  const callEverything = (headers: Record<string, string>): Promise<HttpResult[]> =>
    Promise.all([
      emulator.request('GET', CREDENTIALS_BASE, { headers }),
      emulator.request('GET', credentialPath(productId), { headers }),
      emulator.request('POST', credentialPath(productId), { headers, body: {} }),
      ...CREDENTIAL_ACTIONS.map((action) =>
        emulator.request('POST', credentialPath(productId, action), { headers, body: {} })
      )
    ])

  it('answers 401 AUTH_REQUIRED on every endpoint without a token', async () => {
    const results = await callEverything({})
    expect(results).toHaveLength(8)
    for (const result of results) expectError(result, 401, 'AUTH_REQUIRED')
  })

  it('answers 401 AUTH_REQUIRED for an Authorization header that is not Bearer', async () => {
    const results = await callEverything({ authorization: 'Basic ZGV2OnNlY3JldA==' })
    for (const result of results) expectError(result, 401, 'AUTH_REQUIRED')
  })

  it('answers 401 INVALID_TOKEN on every endpoint for a garbage token', async () => {
    const results = await callEverything({ authorization: 'Bearer this-is-not-a-jwt' })
    for (const result of results) expectError(result, 401, 'INVALID_TOKEN')
  })

  it('answers 401 INVALID_TOKEN for a Bearer header carrying more than one value', async () => {
    const developer = await emulator.createDeveloper()
    expectError(
      await emulator.request('GET', CREDENTIALS_BASE, {
        headers: { authorization: `Bearer ${developer.token} extra` }
      }),
      401,
      'INVALID_TOKEN'
    )
    expectError(
      await emulator.request('GET', CREDENTIALS_BASE, { headers: { authorization: 'Bearer' } }),
      401,
      'AUTH_REQUIRED'
    )
  })

  it('accepts a token with the right key, issuer, audience and subject (the forging below is sound)', async () => {
    const token = await signToken(await emulatorSessionKey(emulator.databasePath), {
      issuer: EMULATOR_ISSUER,
      audience: 'developer',
      subject: developerId
    })
    expect((await emulator.request('GET', credentialPath(productId, undefined), { token })).status).toBe(404) // PRODUCT_CREDENTIAL_NOT_FOUND: authenticated
    expect((await emulator.request('GET', CREDENTIALS_BASE, { token })).status).toBe(200)
  })

  it('answers 401 INVALID_TOKEN for a token signed with another Ed25519 key', async () => {
    const token = await signToken(await foreignSessionKey(), {
      issuer: EMULATOR_ISSUER,
      audience: 'developer',
      subject: developerId
    })
    for (const result of await callEverything({ authorization: `Bearer ${token}` }))
      expectError(result, 401, 'INVALID_TOKEN')
  })

  it('answers 401 INVALID_TOKEN for the wrong issuer', async () => {
    const token = await signToken(await emulatorSessionKey(emulator.databasePath), {
      issuer: 'someone-else',
      audience: 'developer',
      subject: developerId
    })
    expectError(await emulator.request('GET', CREDENTIALS_BASE, { token }), 401, 'INVALID_TOKEN')
  })

  it('answers 401 INVALID_TOKEN for the wrong audience (a customer session token)', async () => {
    const token = await signToken(await emulatorSessionKey(emulator.databasePath), {
      issuer: EMULATOR_ISSUER,
      audience: 'customer',
      subject: developerId
    })
    expectError(await emulator.request('GET', CREDENTIALS_BASE, { token }), 401, 'INVALID_TOKEN')
  })

  it('answers 401 INVALID_TOKEN for alg none', async () => {
    const token = unsignedToken({ subject: developerId })
    expect(token.split('.')[2]).toBe('')
    // An empty signature leaves "Bearer header.payload." — still a single token.
    for (const result of await callEverything({ authorization: `Bearer ${token}` }))
      expectError(result, 401, 'INVALID_TOKEN')
  })

  it('answers 401 INVALID_TOKEN for a genuine token whose payload was edited', async () => {
    const { token } = await emulator.createDeveloper()
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
    const edited = Buffer.from(JSON.stringify({ ...claims, sub: developerId, role: 'admin' })).toString('base64url')
    expectError(
      await emulator.request('GET', CREDENTIALS_BASE, { token: `${header}.${edited}.${signature}` }),
      401,
      'INVALID_TOKEN'
    )
  })

  it('answers 401 INVALID_TOKEN for a well-signed token naming no existing developer', async () => {
    const token = await signToken(await emulatorSessionKey(emulator.databasePath), {
      issuer: EMULATOR_ISSUER,
      audience: 'developer',
      subject: 'dev_doesNotExist'
    })
    expectError(await emulator.request('GET', CREDENTIALS_BASE, { token }), 401, 'INVALID_TOKEN')
  })

  it('answers 401 INVALID_TOKEN for a well-signed token with no subject', async () => {
    const token = await signToken(await emulatorSessionKey(emulator.databasePath), {
      issuer: EMULATOR_ISSUER,
      audience: 'developer'
    })
    expectError(await emulator.request('GET', CREDENTIALS_BASE, { token }), 401, 'INVALID_TOKEN')
  })
})
