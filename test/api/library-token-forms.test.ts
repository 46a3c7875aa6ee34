import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import {
  addFile,
  createCustomer,
  customerSession,
  getLibrary,
  HOUR_MS,
  libraryTokenOf,
  purchase
} from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator, withEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { productWithCredential } from '../support/plugin-client'

// GET /api/library identifies the customer by a library token: Bearer, ?token=, ?download_token=, ?libraryToken=
// (docs/api.md section 4). Anything else is 401 LIBRARY_TOKEN_INVALID (docs/api.md section 1).
describe('GET /api/library: the forms of the library token', () => {
  const clock = createClock()
  let customerId: string
  let email: string
  let token: string
  let developerToken: string

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    const product = await productWithCredential(emu, 'Token Forms Synth')
    developerToken = product.developer.token
    const customer = await createCustomer(emu, { name: 'Bea' })
    customerId = customer.id
    email = customer.email
    await purchase(emu, customerId, product.productId)
    token = await libraryTokenOf(emu, customerId)
  })
  afterAll(() => clock.setOffsetMs(0))

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
    expectError(
      await emu.request('GET', '/api/library', { headers: { authorization: `Bearer ${bad}` } }),
      401,
      'LIBRARY_TOKEN_INVALID'
    )
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
    expectError(
      await getLibrary(emu, undefined, { libraryToken: issued.body.libraryToken as string }),
      401,
      'LIBRARY_TOKEN_INVALID'
    )

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
    await withEmulator(async (other) => {
      const foreignCustomer = await createCustomer(other)
      const foreign = await libraryTokenOf(other, foreignCustomer.id)
      expect((await getLibrary(other, foreign)).status).toBe(200)
      expectError(await getLibrary(emu, foreign), 401, 'LIBRARY_TOKEN_INVALID')
    })
  })
})

// One set of names wherever a library token is accepted (docs/api.md section 8): `token`,
// `library_token`, `libraryToken`, plus `download_token` on the library and downloads; a 401's
// hint names only what that route accepts, and every name it gives works there.
describe('library token forms on every route that takes one', () => {
  let token: string
  let downloadToken: string
  let fileId: string
  let customerId: string

  const emu = useEmulator()
  beforeAll(async () => {
    const product = await productWithCredential(emu, 'Forms Everywhere')
    const customer = await createCustomer(emu, { name: 'Cy' })
    customerId = customer.id
    await purchase(emu, customerId, product.productId)
    fileId = (await addFile(emu, product.productId, { sizeBytes: 16 })).id
    token = await libraryTokenOf(emu, customerId)
    downloadToken = (await getLibrary(emu, token)).body.download_token as string
  })

  const LIBRARY_FORMS = ['token', 'library_token', 'libraryToken'] as const
  const routes = [
    {
      name: 'GET /api/library',
      method: 'GET',
      path: '/api/library',
      query: [...LIBRARY_FORMS, 'download_token'],
      body: [] as string[]
    },
    {
      name: 'GET library-token',
      method: 'GET',
      path: '/api/license/v1/library-token',
      query: [...LIBRARY_FORMS],
      body: [] as string[]
    },
    {
      name: 'POST library-token',
      method: 'POST',
      path: '/api/license/v1/library-token',
      query: [...LIBRARY_FORMS],
      body: [...LIBRARY_FORMS]
    },
    {
      name: 'GET webview-library',
      method: 'GET',
      path: '/api/license/v1/webview-library',
      query: [...LIBRARY_FORMS],
      body: [] as string[]
    },
    {
      name: 'POST webview-library',
      method: 'POST',
      path: '/api/license/v1/webview-library',
      query: [...LIBRARY_FORMS],
      body: [...LIBRARY_FORMS]
    },
    {
      name: 'GET /api/downloads/:id',
      method: 'GET',
      path: '',
      query: [...LIBRARY_FORMS, 'download_token'],
      body: [] as string[]
    }
  ]
  const pathOf = (route: (typeof routes)[number]) => route.path || `/api/downloads/${fileId}`
  const tokenFor = (form: string) => (form === 'download_token' ? downloadToken : token)
  const expectAnswered = (route: (typeof routes)[number], result: Awaited<ReturnType<TestEmulator['request']>>) => {
    expect(result.status, `${route.name}: ${result.text}`).toBe(200)
    if (route.path === '/api/library') expect(result.body.profile.customer_id).toBe(customerId)
    if (route.path.endsWith('library-token')) expect(typeof result.body.library_token).toBe('string')
    if (route.path.endsWith('webview-library')) expect(result.body.profile.name).toBe('Cy')
  }

  for (const route of routes) {
    it(`${route.name}: Bearer`, async () => {
      expectAnswered(route, await emu.request(route.method, pathOf(route), { token }))
    })
    for (const form of route.query) {
      it(`${route.name}: ?${form}=`, async () => {
        expectAnswered(
          route,
          await emu.request(route.method, `${pathOf(route)}?${form}=${encodeURIComponent(tokenFor(form))}`)
        )
      })
    }
    for (const form of route.body) {
      it(`${route.name}: body ${form}`, async () => {
        expectAnswered(route, await emu.request(route.method, pathOf(route), { body: { [form]: tokenFor(form) } }))
      })
    }
    it(`${route.name}: the 401 without a token names exactly the forms the route accepts`, async () => {
      const refused = await emu.request(route.method, pathOf(route))
      expectError(refused, 401, 'LIBRARY_TOKEN_INVALID')
      const named = [...(refused.body.message as string).matchAll(/`([A-Za-z_]+)`/g)]
        .map((m) => m[1])
        .filter((name) => name !== 'license_key')
      expect(new Set(named)).toEqual(new Set(route.query))
      expect(refused.body.message).toMatch(/Bearer/)
    })
  }
})
