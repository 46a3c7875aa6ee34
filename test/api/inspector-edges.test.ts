import { describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

// The request inspector records every service request, whatever a client sends, and reads the
// settings in force when the request arrived.

const emu = useEmulator()

const newest = async () => (await emu.control('GET', '/requests?limit=1')).body.requests[0]

describe('a deeply nested JSON body', () => {
  const deep = `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`

  it('gets its 400 and is recorded, cut past the depth limit with a note', async () => {
    const answer = await emu.request('POST', '/api/license/v1/validate', {
      rawBody: deep,
      headers: { 'content-type': 'application/json' }
    })
    expect(answer.status).toBe(400)
    const summary = await newest()
    expect(summary).toMatchObject({ method: 'POST', path: '/api/license/v1/validate', status: 400 })
    const entry = (await emu.control('GET', `/requests/${summary.id}`)).body.entry
    expect(entry.request.bodyInfo).toMatchObject({ kind: 'json', truncated: true })
    expect(entry.request.bodyInfo.note).toMatch(/Nested too deeply/)
    expect(JSON.stringify(entry.request.body)).toContain('nested deeper than 64 levels')
  })

  it('costs no other request its entry, and logs nothing at error level', async () => {
    await emu.request('POST', '/api/license/v1/validate', {
      rawBody: deep,
      headers: { 'content-type': 'application/json' }
    })
    await emu.request('GET', '/api/library?token=after-the-deep-one')
    const page = (await emu.control('GET', '/requests?limit=2')).body.requests
    expect(page.map((r: { path: string }) => r.path)).toEqual([
      expect.stringMatching(/^\/api\/library\?token=/),
      '/api/license/v1/validate'
    ])
    const lines = emu
      .logOutput()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string })
    expect(lines.filter((line) => line.level >= 50)).toEqual([])
  })
})

describe('auth kind under a runtime header prefix', () => {
  it('records x-acme-* licensing calls as product-credential after PUT /_emulator/settings', async () => {
    const credential = await productWithCredential(emu)
    expect((await emu.control('PUT', '/settings', { headerPrefix: 'acme' })).status).toBe(200)
    try {
      const answer = await pluginClient(emu, credential, 'acme').validate('MAGIC-VALID', 'studio')
      expect(answer.status).toBe(200)
      const summary = await newest()
      expect(summary).toMatchObject({
        path: '/api/license/v1/validate',
        authKind: 'product-credential',
        productId: credential.productId
      })
      // The secret header of the new prefix is previewed, never stored whole.
      const entry = (await emu.control('GET', `/requests/${summary.id}`)).body.entry
      expect(JSON.stringify(entry)).not.toContain(credential.pluginSecret)
      expect(JSON.stringify(entry)).not.toContain(credential.pluginKey)
    } finally {
      await emu.control('PUT', '/settings', { headerPrefix: 'svc' })
    }
  })
})
