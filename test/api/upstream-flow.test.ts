import { beforeAll, describe, expect, it } from 'vitest'

import { addFile, createCustomer, getLibrary, libraryTokenOf, localPath, purchase } from '../support/commerce'
import { databaseFileBytes } from '../support/database'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

// docs/upstream.md: with forwarding on, the service API is answered by the upstream (here a second
// emulator on its own database, standing in for the real platform), and the control plane stays local.
describe('forwarding a plugin flow to the upstream', () => {
  const platform = useEmulator()
  const proxy = useEmulator(() => ({ upstream: { url: platform.baseUrl } }))
  let credential: Awaited<ReturnType<typeof productWithCredential>>
  let licenseKey: string
  let customerId: string

  beforeAll(async () => {
    credential = await productWithCredential(platform, 'Upstream Synth')
    customerId = (await createCustomer(platform)).id
    const bought = await purchase(platform, customerId, credential.productId)
    licenseKey = bought.license.key
  })

  it('answers GET /_emulator/upstream with the setting and keeps the control plane local', async () => {
    const setting = await proxy.control('GET', '/upstream')
    expect(setting.status).toBe(200)
    expect(setting.body).toEqual({
      ok: true,
      upstream: { url: platform.baseUrl, routes: ['/api/**', '/.well-known/**'] }
    })
    // The platform's customer is unknown to the proxy's own control plane.
    const local = await proxy.control('POST', `/customers/${customerId}/library-token`)
    expect(local.status).toBe(404)
  })

  it('activates, validates with a nonce and deactivates against what the upstream holds', async () => {
    const plugin = pluginClient(proxy, credential)
    const activated = await plugin.activate(licenseKey, 'machine-1')
    expect(activated.status).toBe(201)
    expect(activated.headers.get('x-emulator-source')).toBe('upstream')
    const validated = await plugin.validate(licenseKey, 'machine-1', 'nonce-4711')
    expect(validated.status).toBe(200)
    expect(validated.body.valid).toBe(true)
    const token = String(validated.body.license_token)
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))
    expect(payload.nonce).toBe('nonce-4711')
    // The activation happened on the platform, not on the proxy.
    const direct = await pluginClient(platform, credential).validate(licenseKey, 'machine-1')
    expect(direct.body.valid).toBe(true)
    const deactivated = await plugin.deactivate(licenseKey, 'machine-1')
    expect(deactivated.status).toBeLessThan(300)
    const after = await pluginClient(platform, credential).validate(licenseKey, 'machine-1')
    expect(after.body.valid).not.toBe(true)
  })

  it('serves the library and a download with Range from the upstream', async () => {
    const file = await addFile(platform, credential.productId, { sizeBytes: 100_000 })
    const token = await libraryTokenOf(platform, customerId)
    const library = await getLibrary(proxy, token)
    expect(library.status).toBe(200)
    expect(library.headers.get('x-emulator-source')).toBe('upstream')
    const downloads = library.body.products[0].downloads as Array<{ file_id: string; url: string }>
    const link = downloads.find((download) => download.file_id === file.id)
    expect(link).toBeDefined()
    const path = localPath((link as { url: string }).url)
    const whole = Buffer.from(await (await fetch(platform.baseUrl + path)).arrayBuffer())
    const ranged = await fetch(proxy.baseUrl + path, { headers: { range: 'bytes=1000-1999' } })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('content-range')).toBe('bytes 1000-1999/100000')
    expect(Buffer.from(await ranged.arrayBuffer()).equals(whole.subarray(1000, 2000))).toBe(true)
  })

  it("answers the emulator's own screens' calls itself, and forwards the tester's as a plugin's", async () => {
    // A customer of the proxy's own state, as the Library screen shows one.
    const localCustomer = await createCustomer(proxy)
    const token = await libraryTokenOf(proxy, localCustomer.id)
    const asUi = await proxy.request('GET', '/api/library', { token, headers: { 'x-emulator-client': 'ui' } })
    expect(asUi.status, asUi.text).toBe(200)
    expect(asUi.headers.get('x-emulator-source')).toBe('emulator')
    for (const headers of [{ 'x-emulator-client': 'tester' }, {}] as Record<string, string>[]) {
      // The platform never issued this token.
      const forwarded = await proxy.request('GET', '/api/library', { token, headers })
      expect(forwarded.headers.get('x-emulator-source')).toBe('upstream')
      expect(forwarded.status).toBe(401)
    }
  })

  it("marks the emulator's own answers with x-emulator-source: emulator once forwarding is off", async () => {
    const off = await proxy.control('PUT', '/upstream', { url: null })
    expect(off.body.upstream.url).toBeNull()
    const local = await pluginClient(proxy, credential).validate(licenseKey)
    expect(local.status).toBe(401)
    expect(local.headers.get('x-emulator-source')).toBe('emulator')
    await proxy.control('PUT', '/upstream', { url: platform.baseUrl })
  })

  it('refuses a bad setting with VALIDATION_ERROR naming the field', async () => {
    const bad = await proxy.control('PUT', '/upstream', { url: 'ftp://example.test' })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('VALIDATION_ERROR')
    const badRoute = await proxy.control('PUT', '/upstream', { url: platform.baseUrl, routes: ['/api/**x'] })
    expect(badRoute.status).toBe(400)
    expect((await proxy.control('GET', '/upstream')).body.upstream.url).toBe(platform.baseUrl)
  })

  it('keeps every secret of the forwarded traffic out of its database, WAL, log, export and inspector', async () => {
    const plugin = pluginClient(proxy, credential)
    await plugin.activate(licenseKey, 'machine-canary')
    const validated = await plugin.validate(licenseKey, 'machine-canary', 'nonce-canary')
    const licenseToken = String(validated.body.license_token)
    expect(licenseToken.split('.')).toHaveLength(3)
    const libraryToken = await libraryTokenOf(platform, customerId)
    expect((await getLibrary(proxy, libraryToken)).status).toBe(200)
    const listed = await proxy.control('GET', '/requests?limit=500')
    const entries = await Promise.all(
      (listed.body.requests as Array<{ id: number }>).map(
        async (row) => (await proxy.control('GET', `/requests/${row.id}`)).text
      )
    )
    expect(entries.length).toBeGreaterThan(3)
    // The upstream's token is decoded like the emulator's own (docs/api.md "Request inspector").
    const decoded = entries.map((text) => JSON.parse(text).entry.response.licenseTokens?.[0]?.claims)
    expect(decoded).toContainEqual(expect.objectContaining({ nonce: 'nonce-canary', instance_id: 'machine-canary' }))
    const exported = (await proxy.control('GET', '/state')).text
    const places = {
      database: databaseFileBytes(proxy.databasePath).toString('latin1'),
      log: proxy.logOutput(),
      export: exported,
      inspector: listed.text + entries.join('\n')
    }
    const canaries = {
      pluginSecret: credential.pluginSecret,
      pluginKey: credential.pluginKey,
      licenseToken,
      licenseTokenSignature: licenseToken.split('.')[2] as string,
      libraryToken,
      platformAdminToken: platform.adminToken
    }
    for (const [place, text] of Object.entries(places)) {
      for (const [name, canary] of Object.entries(canaries)) {
        expect(text.includes(canary), `${name} found in the ${place}`).toBe(false)
      }
    }
  })
})
