import { beforeAll, describe, expect, it } from 'vitest'

import { addFile, createCustomer, libraryTokenOf, localPath, purchase } from '../support/commerce'
import { useEmulator, withEmulator } from '../support/emulator'
import { productWithCredential } from '../support/plugin-client'

/** Every absolute URL in a JSON answer. */
function urlsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string' && /^https?:\/\//.test(value)) out.push(value)
  else if (Array.isArray(value)) for (const item of value) urlsIn(item, out)
  else if (value && typeof value === 'object') for (const item of Object.values(value)) urlsIn(item, out)
  return out
}

// Every URL the service hands out resolves on the emulator (docs/api.md section 8): the
// library's download links, support.help_url, library-token's library_url and webview_url.
describe('every URL the library, library-token and web view hand out answers 2xx', () => {
  let token: string
  let credential: Awaited<ReturnType<typeof productWithCredential>>
  let licenseKey: string

  const emu = useEmulator()
  beforeAll(async () => {
    credential = await productWithCredential(emu, 'Linked Synth')
    await addFile(emu, credential.productId, { sizeBytes: 32, platform: 'macos' })
    await addFile(emu, credential.productId, { sizeBytes: 48, platform: 'windows', version: '1.1.0' })
    const customer = await createCustomer(emu)
    licenseKey = (await purchase(emu, customer.id, credential.productId)).license.key
    token = await libraryTokenOf(emu, customer.id)
  })

  const expectAllResolve = async (urls: string[], minimum: number) => {
    expect(urls.length).toBeGreaterThanOrEqual(minimum)
    for (const url of new Set(urls)) {
      expect(url.startsWith(emu.baseUrl), url).toBe(true)
      // A client follows a link with the library token it already holds; download links carry their own.
      const answer = await emu.request('GET', localPath(url), { token })
      expect(answer.status, `${url}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(200)
      expect(answer.status, url).toBeLessThan(300)
    }
  }

  it('GET /api/library: download links and support.help_url', async () => {
    const library = await emu.request('GET', '/api/library', { token })
    expect(library.status).toBe(200)
    const urls = urlsIn(library.body)
    expect(urls).toContain(library.body.support.help_url)
    await expectAllResolve(urls, 3)
  })

  it('library-token: library_url and webview_url', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const issued = await emu.request(method, '/api/license/v1/library-token', { token })
      expect(issued.status).toBe(200)
      token = issued.body.library_token as string
      await expectAllResolve(urlsIn(issued.body), 2)
    }
  })

  it('webview-library, by library token and by product credential with license_key', async () => {
    const byToken = await emu.request('GET', '/api/license/v1/webview-library', { token })
    expect(byToken.status).toBe(200)
    await expectAllResolve(urlsIn(byToken.body), 4)
    const byCredential = await emu.request('POST', '/api/license/v1/webview-library', {
      headers: {
        'x-svc-app-id': credential.appId,
        'x-svc-plugin-key': credential.pluginKey,
        'x-svc-plugin-secret': credential.pluginSecret
      },
      body: { license_key: licenseKey }
    })
    expect(byCredential.status, byCredential.text).toBe(200)
    await expectAllResolve(urlsIn(byCredential.body), 4)
  })

  it('the support page is a page, also with the query a browser or a mail link adds', async () => {
    const page = await emu.request('GET', '/support?_=123&utm_source=mail')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/text\/html/)
    expect(page.text).toMatch(/<h1>Customer support<\/h1>/)
  })
})

describe('the support page under a fault rule', () => {
  it('answers an injected error as JSON in the contract shape', async () => {
    await withEmulator(async (emu) => {
      expect(
        (await emu.control('PUT', '/faults', { rules: [{ route: '/support', kind: 'error', status: 503 }] })).status
      ).toBe(200)
      const failed = await emu.request('GET', '/support')
      expect(failed.status).toBe(503)
      expect(failed.body).toMatchObject({ ok: false, error: expect.any(String) })
    })
  })
})
