import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClock } from '../../src/core/clock/clock'
import { startEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { expectError } from '../support/credentials'
import { productWithCredential } from '../support/plugin-client'
import { HOUR_MS, createCustomer, customerSession, getLibrary, libraryTokenOf, purchase } from '../support/commerce'

// GET /api/library identifies the customer by a library token: Bearer, ?token=, ?download_token=, ?libraryToken=
// (service-interface.md 4.3, section 5). Anything else is 401 LIBRARY_TOKEN_INVALID (decisions.md section 1).
describe('GET /api/library: the forms of the library token', () => {
  const clock = createClock()
  let emu: TestEmulator
  let customerId: string
  let email: string
  let token: string
  let developerToken: string

  beforeAll(async () => {
    emu = await startEmulator({ clock })
    const product = await productWithCredential(emu, 'Token Forms Synth')
    developerToken = product.developer.token
    const customer = await createCustomer(emu, { name: 'Bea' })
    customerId = customer.id
    email = customer.email
    await purchase(emu, customerId, product.productId)
    token = await libraryTokenOf(emu, customerId)
  })
  afterAll(async () => {
    clock.setOffsetMs(0)
    await emu.close()
  })

  const expectLibraryOfCustomer = (result: Awaited<ReturnType<TestEmulator['request']>>) => {
    expect(result.status, result.text).toBe(200)
    expect(result.body.ok).toBe(true)
    expect(result.body.profile.customer_id).toBe(customerId)
    expect(result.body.profile.email).toBe(email)
    expect(result.body.products.map((p: { name: string }) => p.name)).toEqual(['Token Forms Synth'])
  }

  it('accepts the token as a Bearer header', async () => {
    expectLibraryOfCustomer(await getLibrary(emu, token))
  })

  it('accepts the token as ?token=', async () => {
    expectLibraryOfCustomer(await getLibrary(emu, undefined, { token }))
  })

  it('accepts the token as ?libraryToken=', async () => {
    expectLibraryOfCustomer(await getLibrary(emu, undefined, { libraryToken: token }))
  })

  it('accepts the download_token the library itself returns, as ?download_token=', async () => {
    const first = await getLibrary(emu, token)
    const downloadToken = first.body.download_token as string
    expect(typeof downloadToken).toBe('string')
    expect(downloadToken).not.toBe(token)
    expectLibraryOfCustomer(await getLibrary(emu, undefined, { download_token: downloadToken }))
  })

  it('answers 401 LIBRARY_TOKEN_INVALID with no token at all', async () => {
    expectError(await getLibrary(emu, undefined), 401, 'LIBRARY_TOKEN_INVALID')
  })

  it.each([
    ['garbage text', 'not-a-token'],
    ['a JWT-shaped string with no valid signature', 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlc2lnbmF0dXJl'],
    ['an empty-looking value', '%20']
  ])('answers 401 LIBRARY_TOKEN_INVALID for %s, in every token form', async (_label, bad) => {
    expectError(await emu.request('GET', '/api/library', { headers: { authorization: `Bearer ${bad}` } }), 401, 'LIBRARY_TOKEN_INVALID')
    expectError(await emu.request('GET', `/api/library?token=${bad}`), 401, 'LIBRARY_TOKEN_INVALID')
    expectError(await emu.request('GET', `/api/library?download_token=${bad}`), 401, 'LIBRARY_TOKEN_INVALID')
    expectError(await emu.request('GET', `/api/library?libraryToken=${bad}`), 401, 'LIBRARY_TOKEN_INVALID')
  })

  it('does not take a library token whose signature was tampered with', async () => {
    const [header, payload, signature = ''] = token.split('.')
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`
    expectError(await getLibrary(emu, `${header}.${payload}.${flipped}`), 401, 'LIBRARY_TOKEN_INVALID')
  })

  it('does not take a developer JWT as a library token', async () => {
    expectError(await getLibrary(emu, developerToken), 401, 'LIBRARY_TOKEN_INVALID')
    expectError(await getLibrary(emu, undefined, { token: developerToken }), 401, 'LIBRARY_TOKEN_INVALID')
  })

  it('does not take a signed-in customer JWT as a library token', async () => {
    const session = await customerSession(emu, customerId)
    expectError(await getLibrary(emu, session), 401, 'LIBRARY_TOKEN_INVALID')
  })

  it('refuses a library token once the emulator clock passes its expiry, and takes it again before', async () => {
    const fresh = await libraryTokenOf(emu, customerId)
    const issued = await emu.control('POST', `/customers/${customerId}/library-token`)
    const expiresAt = Date.parse(issued.body.expiresAt as string)
    expect(expiresAt).toBeGreaterThan(clock.now().getTime())

    clock.setOffsetMs(expiresAt - Date.now() + HOUR_MS)
    expectError(await getLibrary(emu, fresh), 401, 'LIBRARY_TOKEN_INVALID')
    expectError(await getLibrary(emu, undefined, { libraryToken: issued.body.libraryToken as string }), 401, 'LIBRARY_TOKEN_INVALID')

    clock.setOffsetMs(0)
    expect((await getLibrary(emu, fresh)).status).toBe(200)
  })

  it('refuses the download_token once its own (shorter) lifetime has passed', async () => {
    const first = await getLibrary(emu, token)
    const downloadToken = first.body.download_token as string
    const exp = JSON.parse(Buffer.from(downloadToken.split('.')[1] ?? '', 'base64url').toString('utf8')).exp as number
    clock.setOffsetMs(exp * 1000 - Date.now() + 60_000)
    expectError(await getLibrary(emu, undefined, { download_token: downloadToken }), 401, 'LIBRARY_TOKEN_INVALID')
    clock.setOffsetMs(0)
  })

  it('refuses a library token minted by another emulator (another signing key)', async () => {
    const other = await startEmulator()
    try {
      const foreignCustomer = await createCustomer(other)
      const foreign = await libraryTokenOf(other, foreignCustomer.id)
      expect((await getLibrary(other, foreign)).status).toBe(200)
      expectError(await getLibrary(emu, foreign), 401, 'LIBRARY_TOKEN_INVALID')
    } finally {
      await other.close()
    }
  })
})
