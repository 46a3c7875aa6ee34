import { beforeAll, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import {
  addFile,
  createCustomer,
  customerSession,
  getLibrary,
  libraryTokenOf,
  purchase,
  resellerOrder
} from '../support/commerce'
import type { ProductFile } from '../support/commerce'
import { expectError } from '../support/credentials'
import { useEmulator } from '../support/emulator'
import { productWithCredential } from '../support/plugin-client'

// Downloads check the token and the entitlement (docs/api.md section 4): no token 401, another
// customer's token 403 ENTITLEMENT_REQUIRED, unknown file 404.
describe('GET /api/downloads/:fileId: who may download', () => {
  const clock = createClock()
  let productId: string
  let file: ProductFile
  let ownerLibraryToken: string
  let ownerDownloadToken: string
  let strangerLibraryToken: string
  let strangerDownloadToken: string

  const emu = useEmulator({ clock })
  beforeAll(async () => {
    const product = await productWithCredential(emu, 'Access Arpeggiator')
    productId = product.productId
    file = await addFile(emu, productId, { sizeBytes: 1234 })
    const owner = await createCustomer(emu)
    await purchase(emu, owner.id, productId)
    ownerLibraryToken = await libraryTokenOf(emu, owner.id)
    ownerDownloadToken = (await getLibrary(emu, ownerLibraryToken)).body.download_token
    // The stranger owns another product, so holds a perfectly good token of their own.
    const other = await productWithCredential(emu, 'Other Oscillator')
    const stranger = await createCustomer(emu)
    await purchase(emu, stranger.id, other.productId)
    strangerLibraryToken = await libraryTokenOf(emu, stranger.id)
    strangerDownloadToken = (await getLibrary(emu, strangerLibraryToken)).body.download_token
  })

  const download = (fileId: string, query: string, headers: Record<string, string> = {}) =>
    emu.request('GET', `/api/downloads/${encodeURIComponent(fileId)}${query}`, { headers })

  it('the owner downloads with the download token, a library token in ?token=, or a Bearer header', async () => {
    for (const result of [
      await download(file.id, `?download_token=${ownerDownloadToken}`),
      await download(file.id, `?token=${ownerLibraryToken}`),
      await download(file.id, '', { authorization: `Bearer ${ownerLibraryToken}` })
    ]) {
      expect(result.status).toBe(200)
      expect(result.headers.get('content-length')).toBe('1234')
    }
  })

  it("another customer's token is 403 ENTITLEMENT_REQUIRED", async () => {
    expectError(await download(file.id, `?download_token=${strangerDownloadToken}`), 403, 'ENTITLEMENT_REQUIRED')
    expectError(await download(file.id, `?token=${strangerLibraryToken}`), 403, 'ENTITLEMENT_REQUIRED')
    const head = await emu.request('HEAD', `/api/downloads/${file.id}?download_token=${strangerDownloadToken}`)
    expect(head.status).toBe(403)
  })

  it('a customer who claims a reseller order of the product gains access', async () => {
    const late = await createCustomer(emu)
    const token = await libraryTokenOf(emu, late.id)
    expectError(await download(file.id, `?token=${token}`), 403, 'ENTITLEMENT_REQUIRED')
    const order = await resellerOrder(emu, productId)
    const claimed = await emu.request('POST', '/api/library/claim', {
      token: await customerSession(emu, late.id),
      body: { claim: order.claimToken }
    })
    expect(claimed.status).toBe(200)
    expect((await download(file.id, `?token=${token}`)).status).toBe(200)
  })

  it('an unknown file is 404', async () => {
    const missing = await download('file_doesnotexist', `?download_token=${ownerDownloadToken}`)
    expectError(missing, 404, missing.body?.error as string)
    expect(['FILE_NOT_FOUND', 'NOT_FOUND']).toContain(missing.body.error)
  })

  it('no token is 401 LIBRARY_TOKEN_INVALID; a bad one too', async () => {
    expectError(await download(file.id, ''), 401, 'LIBRARY_TOKEN_INVALID')
    expectError(await download(file.id, '?download_token=garbage'), 401, 'LIBRARY_TOKEN_INVALID')
    expectError(await download('file_doesnotexist', ''), 401, 'LIBRARY_TOKEN_INVALID')
    const head = await emu.request('HEAD', `/api/downloads/${file.id}`)
    expect(head.status).toBe(401)
  })

  it('a developer JWT or a customer JWT is not a download token', async () => {
    const developer = await emu.createDeveloper()
    expectError(
      await download(file.id, '', { authorization: `Bearer ${developer.token}` }),
      401,
      'LIBRARY_TOKEN_INVALID'
    )
    const customer = await createCustomer(emu)
    const session = await customerSession(emu, customer.id)
    expectError(await download(file.id, `?token=${session}`), 401, 'LIBRARY_TOKEN_INVALID')
  })

  it('the download token expires on the emulator clock', async () => {
    const exp = JSON.parse(Buffer.from(ownerDownloadToken.split('.')[1] ?? '', 'base64url').toString('utf8'))
      .exp as number
    clock.setOffsetMs(exp * 1000 - Date.now() + 1000)
    try {
      expectError(await download(file.id, `?download_token=${ownerDownloadToken}`), 401, 'LIBRARY_TOKEN_INVALID')
    } finally {
      clock.setOffsetMs(0)
    }
    expect((await download(file.id, `?download_token=${ownerDownloadToken}`)).status).toBe(200)
  })

  it('an empty file is a 200 with Content-Length 0; a range from a position is 416, a suffix the whole (empty) file', async () => {
    const empty = await addFile(emu, productId, { version: '0.0.1', sizeBytes: 0, filename: 'empty.pkg' })
    const whole = await download(empty.id, `?token=${ownerLibraryToken}`)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-length')).toBe('0')
    expect(whole.text).toBe('')
    for (const range of ['bytes=0-', 'bytes=0-0']) {
      const ranged = await download(empty.id, `?token=${ownerLibraryToken}`, { range })
      expect(ranged.status, `${range}: ${ranged.headers.get('content-range')}`).toBe(416)
      expect(ranged.headers.get('content-range')).toBe('bytes */0')
    }
    // RFC 9110 14.1.1: a non-zero suffix of an empty file is satisfiable, but no 206 Content-Range can name
    // its bytes (it used to answer "bytes 0--1/0"); the server ignores the Range and sends the empty file.
    const suffix = await download(empty.id, `?token=${ownerLibraryToken}`, { range: 'bytes=-100' })
    expect(suffix.status).toBe(200)
    expect(suffix.headers.get('content-range')).toBeNull()
    expect(suffix.headers.get('content-length')).toBe('0')
  })
})
