import { beforeAll, describe, expect, it } from 'vitest'

import { createCustomer, purchase } from '../support/commerce'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// The inspector's "Export HAR": the shown requests as a HAR 1.2 file, redacted as the inspector is.

let credential: PluginCredential
let licenseKey: string
const emu = useEmulator()
beforeAll(async () => {
  credential = await productWithCredential(emu, 'Har Synth')
  const customer = await createCustomer(emu)
  licenseKey = (await purchase(emu, customer.id, credential.productId, { maxActivations: 3 })).license.key
})

describe('GET /_emulator/requests/har', () => {
  it('answers the filtered requests, oldest first, with previews and never a secret', async () => {
    await emu.control('DELETE', '/requests')
    const plugin = pluginClient(emu, credential)
    await plugin.activate(licenseKey, 'har-mac')
    await plugin.validate(licenseKey, 'har-mac')
    await emu.request('GET', '/.well-known/jwks.json')
    const answer = await emu.control('GET', '/requests/har?surface=license-v1')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-disposition')).toContain('.har')
    const har = answer.body as {
      ok: boolean
      log: {
        version: string
        entries: {
          request: {
            url: string
            method: string
            headers: { name: string; value: string }[]
            postData?: { text: string }
          }
          response: { status: number; content: { text?: string } }
        }[]
      }
    }
    expect(har.ok).toBe(true)
    expect(har.log.version).toBe('1.2')
    expect(har.log.entries.map((entry) => new URL(entry.request.url).pathname)).toEqual([
      '/api/license/v1/activate',
      '/api/license/v1/validate'
    ])
    expect(har.log.entries[0]!.request.postData?.text).toContain(licenseKey)
    const secretHeader = har.log.entries[0]!.request.headers.find((header) => header.name.endsWith('plugin-secret'))
    expect(secretHeader?.value).toContain('...')
    const text = JSON.stringify(har)
    expect(text).not.toContain(credential.pluginSecret)
    expect(text).not.toContain(credential.pluginKey)
    // License tokens in the answers are previews too.
    expect(text).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/)
  })

  it('refuses a bad filter like the list does', async () => {
    expect((await emu.control('GET', '/requests/har?status=abc')).status).toBe(400)
  })
})

describe('POST /_emulator/state/preview', () => {
  it('answers what a document holds and changes nothing; a bad one gets the import 400', async () => {
    await emu.control('PUT', '/clock', { offsetS: 86_400 })
    const exported = (await emu.control('GET', '/state')).body.state as { licenses: unknown[] }
    await emu.control('PUT', '/clock', { offsetS: 0 })
    const answer = await emu.control('POST', '/state/preview', exported)
    expect(answer.status).toBe(200)
    expect(answer.body.preview.counts.licenses).toBe(exported.licenses.length)
    expect(answer.body.preview.clock).toEqual({ offsetS: 86_400 })
    expect((await emu.control('GET', '/clock')).body.offsetS).toBe(0)
    const bad = await emu.control('POST', '/state/preview', { ...exported, licenses: [{}] })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('VALIDATION_ERROR')
  })
})
