import { beforeAll, describe, expect, it } from 'vitest'

import {
  addFile,
  createCustomer,
  customerSession,
  getLibrary,
  libraryTokenOf,
  localPath,
  purchase,
  resellerOrder
} from '../support/commerce'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// docs/api.md section 2: the plugin secret is never logged; the key is sensitive in logs. docs/api.md section 2:
// a full key or secret never appears in a log line. Library, download, license and session tokens are credentials too.
describe('secrets never reach the log (licensing, library, claim, downloads)', () => {
  let credential: PluginCredential & { developer: { id: string; token: string } }
  const secrets: Record<string, string> = {}

  const emu = useEmulator()
  beforeAll(async () => {
    credential = await productWithCredential(emu, 'Quiet Log Limiter')
    secrets.pluginSecret = credential.pluginSecret
    secrets.pluginKey = credential.pluginKey
    secrets.developerToken = credential.developer.token
    await addFile(emu, credential.productId, { sizeBytes: 2048 })
    const customer = await createCustomer(emu)
    const bought = await purchase(emu, customer.id, credential.productId)
    const plugin = pluginClient(emu, credential)

    // Licensing: the three headers, the compatibility forms, failures too.
    const activated = await plugin.activate(bought.license.key, 'log-machine', { nonce: 'log-nonce' })
    expect(activated.status).toBe(201)
    secrets.licenseToken = activated.body.license_token
    const validated = await plugin.validate(bought.license.key, 'log-machine', 'n2')
    secrets.validateToken = validated.body.license_token
    await emu.request('POST', '/api/license/v1/validate', {
      headers: {
        'x-svc-app-id': credential.appId,
        authorization: `Bearer ${credential.pluginKey}`,
        'x-svc-plugin-secret': credential.pluginSecret
      },
      body: { license_key: bought.license.key }
    })
    await emu.request('POST', '/api/license/v1/validate', {
      headers: {
        'x-svc-app-id': credential.appId,
        'x-svc-api-key': credential.pluginKey,
        'x-svc-plugin-secret': `${credential.pluginSecret}x`
      },
      body: { license_key: bought.license.key }
    })
    // A malformed body and an unknown field that carry the secret.
    await emu.request('POST', '/api/license/v1/activate', {
      headers: { ...plugin.headers, 'content-type': 'application/json' },
      rawBody: `{"license_key":"${credential.pluginSecret}"`
    })
    await emu.request('POST', '/api/license/v1/validate', {
      headers: plugin.headers,
      body: { license_key: bought.license.key, [credential.pluginSecret]: credential.pluginKey }
    })

    // Library tokens: issued by the control plane and by library-token, then used in every form.
    const libraryToken = await libraryTokenOf(emu, customer.id)
    secrets.libraryToken = libraryToken
    const issued = await plugin.call('library-token', { license_key: bought.license.key })
    const issuedLibraryToken = issued.body.library_token as string
    secrets.issuedLibraryToken = issuedLibraryToken
    const library = await getLibrary(emu, undefined, { token: libraryToken, instance_id: 'log-machine' })
    expect(library.status).toBe(200)
    const downloadToken = library.body.download_token as string
    secrets.downloadToken = downloadToken
    await getLibrary(emu, undefined, { libraryToken: issuedLibraryToken })
    await getLibrary(emu, undefined, { download_token: downloadToken })
    await getLibrary(emu, libraryToken)
    await emu.request('GET', `/api/library?token=${libraryToken}&unknown=${libraryToken}`)
    await emu.request('GET', `/api/license/v1/webview-library?token=${encodeURIComponent(issuedLibraryToken)}`)
    await emu.request('GET', `/api/license/v1/library-token?library_token=${encodeURIComponent(issuedLibraryToken)}`)
    await emu.request('GET', `/api/license/v1/library-token?license_key=${bought.license.key}`, {
      headers: plugin.headers
    })

    // Downloads by the link (download_token in the query) and by ?token=.
    const link = localPath(library.body.products[0].downloads[0].url)
    expect((await emu.request('GET', link)).status).toBe(200)
    await emu.request('GET', `/api/downloads/${library.body.products[0].downloads[0].file_id}?token=${libraryToken}`)
    await emu.request('GET', `/api/downloads/no-such-file?download_token=${downloadToken}`)

    // Claims with the claim token in the query and the body.
    const order = await resellerOrder(emu, credential.productId)
    secrets.claimToken = order.claimToken
    const session = await customerSession(emu, customer.id)
    secrets.customerSession = session
    expect((await emu.request('POST', `/api/library/claim?claim=${order.claimToken}`, { token: session })).status).toBe(
      200
    )
    await emu.request('POST', '/api/library/claim', { token: session, body: { claim_token: order.claimToken } })
    await emu.request('POST', '/api/library/claim', { token: libraryToken, body: { claim: order.claimToken } })
  })

  it('the log saw the requests', () => {
    const log = emu.logOutput()
    expect(log).toContain('/api/license/v1/activate')
    expect(log).toContain('/api/library')
    expect(log).toContain('/api/downloads/')
    expect(log).toContain('/api/library/claim')
  })

  it.each([
    'pluginSecret',
    'pluginKey',
    'developerToken',
    'licenseToken',
    'validateToken',
    'libraryToken',
    'issuedLibraryToken',
    'downloadToken',
    'claimToken',
    'customerSession'
  ])('no %s in the log, whole or as its signature', (name) => {
    const value = secrets[name] as string
    expect(typeof value).toBe('string')
    expect(value.length).toBeGreaterThan(20)
    const log = emu.logOutput()
    expect(log).not.toContain(value)
    expect(log).not.toContain(encodeURIComponent(value))
    // For tokens, not even the signature part on its own.
    const signature = value.split('.')[2]
    if (signature) expect(log).not.toContain(signature)
  })
})
