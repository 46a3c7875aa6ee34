import { beforeAll, describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// QA tooling working together: what a fault does to a plugin is what the inspector shows,
// and a reset clears faults, the request log and the clock together.

let credential: PluginCredential
const emu = useEmulator()
beforeAll(async () => {
  credential = await productWithCredential(emu, 'Faulty Synth')
})

describe('faults seen through the inspector', () => {
  it('records an injected error and an injected rate limit with their status and body', async () => {
    await emu.control('DELETE', '/requests')
    await emu.control('PUT', '/faults', {
      rules: [
        { method: 'POST', route: '/api/license/v1/validate', kind: 'error', status: 502 },
        { method: 'POST', route: '/api/license/v1/activate', kind: 'rate_limit', retryAfterS: 7 }
      ]
    })
    const plugin = pluginClient(emu, credential)
    expect((await plugin.validate('MAGIC-VALID')).status).toBe(502)
    const limited = await plugin.activate('MAGIC-VALID', 'm-1')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('7')

    const listed = await emu.control('GET', '/requests?surface=license-v1')
    const byPath = new Map(listed.body.requests.map((r: { path: string; status: number; id: number }) => [r.path, r]))
    const validate = byPath.get('/api/license/v1/validate') as { status: number; id: number }
    const activate = byPath.get('/api/license/v1/activate') as { status: number; id: number }
    expect(validate.status).toBe(502)
    expect(activate.status).toBe(429)
    const entry = await emu.control('GET', `/requests/${activate.id}`)
    expect(JSON.stringify(entry.body.entry.response)).toContain('RATE_LIMITED')
    expect(JSON.stringify(entry.body.entry)).not.toContain(credential.pluginSecret)
  })

  it('keeps the request body of a faulted exchange (error and rate limit), redacted as any other', async () => {
    await emu.control('DELETE', '/requests')
    await emu.control('PUT', '/faults', {
      rules: [
        { method: 'POST', route: '/api/license/v1/validate', kind: 'error', status: 503 },
        { method: 'POST', route: '/api/plugin-connections/verify', kind: 'rate_limit' }
      ]
    })
    const plugin = pluginClient(emu, credential)
    expect((await plugin.validate('MAGIC-VALID', 'studio-mac', 'nonce-123')).status).toBe(503)
    const verify = await emu.request('POST', '/api/plugin-connections/verify', {
      body: {
        productId: credential.productId,
        appId: credential.appId,
        pluginKey: credential.pluginKey,
        pluginSecret: credential.pluginSecret
      }
    })
    expect(verify.status).toBe(429)

    const listed = (await emu.control('GET', '/requests')).body.requests as Array<{ id: number; path: string }>
    const entryOf = async (path: string) =>
      (await emu.control('GET', `/requests/${listed.find((r) => r.path === path)!.id}`)).body.entry
    const validate = await entryOf('/api/license/v1/validate')
    expect(validate.request.bodyInfo.kind).toBe('json')
    expect(validate.request.body).toMatchObject({ instance_id: 'studio-mac', nonce: 'nonce-123' })
    const verified = await entryOf('/api/plugin-connections/verify')
    expect(verified.request.body).toMatchObject({ productId: credential.productId, appId: credential.appId })
    // The secret and the full key are previewed, never stored, also when a fault answered.
    expect(JSON.stringify(verified)).not.toContain(credential.pluginSecret)
    expect(JSON.stringify(verified)).not.toContain(credential.pluginKey)
    await emu.control('PUT', '/faults', { rules: [] })
  })

  it('reset clears the fault rules, the request log and the clock offset together', async () => {
    await emu.control('PUT', '/faults', { rules: [{ route: '/**', kind: 'error', status: 500 }] })
    await emu.control('PUT', '/clock', { offsetS: 999 })
    await pluginClient(emu, credential).validate('MAGIC-VALID')
    expect((await emu.control('POST', '/reset')).status).toBe(200)
    expect((await emu.control('GET', '/faults')).body.rules).toEqual([])
    expect((await emu.control('GET', '/requests')).body.requests).toEqual([])
    expect((await emu.control('GET', '/clock')).body.offsetS).toBe(0)
    const health = await emu.request('GET', '/.well-known/jwks.json')
    expect(health.status).toBe(200)
  })
})
