import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { startEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// The inspector as a QA tool (issue 26, item 3): a text search over the whole exchange, the
// answer's error code, the fault rule that acted, and the UI's own calls set apart.

interface Summary {
  id: number
  path: string
  status: number
  source: 'client' | 'tester' | 'ui'
  errorCode: string | null
  fault: { ruleId: string; kind: string; label: string } | null
}

let emu: TestEmulator
let credential: PluginCredential
beforeAll(async () => {
  emu = await startEmulator()
  credential = await productWithCredential(emu, 'Searchable Synth')
})
afterAll(async () => emu.close())
beforeEach(async () => {
  await emu.control('PUT', '/faults', { rules: [] })
  await emu.control('DELETE', '/requests')
})

const listed = async (query = ''): Promise<Summary[]> => {
  const answer = await emu.control('GET', `/requests${query}`)
  expect(answer.status).toBe(200)
  return answer.body.requests as Summary[]
}

describe('the request inspector for QA', () => {
  it('finds requests by text anywhere in the exchange: a license key and an instance id in the body, a path, a code', async () => {
    const plugin = pluginClient(emu, credential)
    await plugin.activate('MAGIC-VALID', 'studio-mac-42')
    await plugin.validate('MAGIC-EXPIRED', 'laptop-7')
    await emu.request('GET', '/.well-known/jwks.json')

    const byInstance = await listed('?q=STUDIO-MAC-42')
    expect(byInstance.map((entry) => entry.path)).toEqual(['/api/license/v1/activate'])
    const byKey = await listed('?q=magic-expired')
    expect(byKey.map((entry) => entry.path)).toEqual(['/api/license/v1/validate'])
    // The answer's body is searched too (the validate code).
    expect((await listed('?q=EXPIRED')).map((entry) => entry.path)).toEqual(['/api/license/v1/validate'])
    expect((await listed('?q=jwks')).map((entry) => entry.path)).toEqual(['/.well-known/jwks.json'])
    expect(await listed('?q=nothing-like-this')).toEqual([])
    // Only what the inspector shows is searched: the secret was redacted before it was stored.
    expect(await listed(`?q=${encodeURIComponent(credential.pluginSecret)}`)).toEqual([])
  })

  it('gives each answer its error code, so 403 TRIAL_EXPIRED and 403 EXPIRED differ in the list', async () => {
    const plugin = pluginClient(emu, credential)
    expect((await plugin.activate('MAGIC-TRIAL-EXPIRED', 'm-1')).status).toBe(403)
    expect((await plugin.activate('MAGIC-EXPIRED', 'm-1')).status).toBe(403)
    expect((await plugin.validate('MAGIC-SUSPENDED')).status).toBe(200)
    expect((await plugin.validate('MAGIC-VALID')).status).toBe(200)

    const entries = (await listed()).reverse()
    expect(entries.map((entry) => [entry.status, entry.errorCode])).toEqual([
      [403, 'TRIAL_EXPIRED'],
      [403, 'EXPIRED'],
      // A validate answer that is not valid carries its code; a valid one has none.
      [200, 'SUSPENDED'],
      [200, null]
    ])
  })

  it('names the fault rule that failed, rate-limited, delayed or dropped a request', async () => {
    const rules = await emu.control('PUT', '/faults', {
      rules: [
        { id: 'slow-validate', method: 'POST', route: '/api/license/v1/validate', kind: 'latency', ms: 5 },
        {
          id: 'limit-activate',
          method: 'POST',
          route: '/api/license/v1/activate',
          kind: 'rate_limit',
          retryAfterS: 30
        },
        { id: 'jwks-down', route: '/.well-known/jwks.json', kind: 'error', status: 502 },
        { id: 'deactivate-offline', route: '/api/license/v1/deactivate', kind: 'offline' }
      ]
    })
    expect(rules.status).toBe(200)
    const plugin = pluginClient(emu, credential)
    expect((await plugin.validate('MAGIC-VALID')).status).toBe(200)
    expect((await plugin.activate('MAGIC-VALID', 'm-1')).status).toBe(429)
    expect((await emu.request('GET', '/.well-known/jwks.json')).status).toBe(502)
    await expect(plugin.deactivate('MAGIC-VALID', 'm-1')).rejects.toThrow()
    await emu.control('PUT', '/faults', { rules: [] })
    await emu.request('GET', '/api/license/v1/public-key')

    const byPath = new Map((await listed()).map((entry) => [entry.path, entry]))
    expect(byPath.get('/api/license/v1/validate')?.fault).toEqual({
      ruleId: 'slow-validate',
      kind: 'latency',
      label: 'latency POST /api/license/v1/validate (5 ms)',
      stage: 'before'
    })
    const limited = byPath.get('/api/license/v1/activate')
    expect(limited?.fault).toMatchObject({
      ruleId: 'limit-activate',
      kind: 'rate_limit',
      label: 'rate_limit POST /api/license/v1/activate (retry after 30 s)'
    })
    expect(limited?.errorCode).toBe('RATE_LIMITED')
    expect(byPath.get('/.well-known/jwks.json')).toMatchObject({
      status: 502,
      errorCode: 'FAULT_INJECTED',
      fault: { ruleId: 'jwks-down', kind: 'error' }
    })
    await expect.poll(async () => (await listed('?q=deactivate'))[0]?.fault?.ruleId).toBe('deactivate-offline')
    expect((await listed('?q=deactivate'))[0]?.status).toBe(0)
    // No rule fired: none named.
    expect(byPath.get('/api/license/v1/public-key')?.fault).toBeNull()

    const entry = await emu.control('GET', `/requests/${limited?.id}`)
    expect(entry.body.entry.fault.ruleId).toBe('limit-activate')
  })

  it("marks the UI's own calls and the tester's by their header, and filters by source", async () => {
    await emu.request('GET', '/api/license/v1/public-key', { headers: { 'x-emulator-client': 'ui' } })
    await emu.request('GET', '/.well-known/jwks.json', { headers: { 'x-emulator-client': 'tester' } })
    await emu.request('GET', '/api/license/v1/public-key')
    // An unknown name is a client like any other.
    await emu.request('GET', '/api/license/v1/public-key?from=script', {
      headers: { 'x-emulator-client': 'my-script' }
    })

    expect((await listed()).map((entry) => entry.source).sort()).toEqual(['client', 'client', 'tester', 'ui'])
    const withoutUi = await listed('?source=client,tester')
    expect(withoutUi.map((entry) => entry.source).sort()).toEqual(['client', 'client', 'tester'])
    expect((await listed('?source=ui')).map((entry) => entry.path)).toEqual(['/api/license/v1/public-key'])
  })

  it('the live stream searches bodies too, and a reconnecting client gets what it missed', async () => {
    const plugin = pluginClient(emu, credential)
    await plugin.validate('MAGIC-VALID', 'before-the-gap')
    const [last] = await listed('?limit=1')
    await plugin.validate('MAGIC-VALID', 'replay-me-please')
    await plugin.validate('MAGIC-VALID', 'not-this-one')
    const controller = new AbortController()
    const response = await fetch(`${emu.baseUrl}/_emulator/requests/stream?q=REPLAY-ME`, {
      headers: { 'x-emulator-token': emu.adminToken, 'last-event-id': String(last?.id) },
      signal: controller.signal
    })
    expect(response.status).toBe(200)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    let text = ''
    const until = async (done: (seen: string) => boolean) => {
      while (!done(text)) {
        const chunk = await reader.read()
        if (chunk.done) break
        text += new TextDecoder().decode(chunk.value)
      }
    }
    await until((seen) => seen.includes('event: request'))
    // Live: the body matches, not the path.
    await plugin.validate('MAGIC-VALID', 'skip-me')
    await plugin.validate('MAGIC-VALID', 'live-replay-me-too')
    await until((seen) => seen.split('event: request').length > 2)
    controller.abort()
    const ids = [...text.matchAll(/^data: (.*)$/gm)].map((match) => (JSON.parse(match[1] as string) as Summary).id)
    const bodies = await Promise.all(
      ids.map(async (id) => JSON.stringify((await emu.control('GET', `/requests/${id}`)).body.entry.request.body))
    )
    expect(bodies).toHaveLength(2)
    expect(bodies[0]).toContain('replay-me-please')
    expect(bodies[1]).toContain('live-replay-me-too')
  })

  it('refuses a bad source filter with a 400 that names it', async () => {
    const answer = await emu.control('GET', '/requests?source=ui,plugin')
    expect(answer.status).toBe(400)
    expect(answer.body.error).toBe('VALIDATION_ERROR')
    expect(JSON.stringify(answer.body)).toContain('source')
  })

  it('exports the new columns with the log and imports them back unchanged', async () => {
    await emu.control('PUT', '/faults', {
      rules: [{ id: 'down', route: '/.well-known/jwks.json', kind: 'error', status: 503 }]
    })
    await emu.request('GET', '/.well-known/jwks.json', { headers: { 'x-emulator-client': 'tester' } })
    await emu.control('PUT', '/faults', { rules: [] })
    const exported = await emu.control('GET', '/state?includeRequests=1')
    const requests = exported.body.state.requests as Array<Record<string, unknown>>
    expect(requests).toHaveLength(1)
    expect(requests[0]).toMatchObject({
      source: 'tester',
      errorCode: 'FAULT_INJECTED',
      faultRuleId: 'down',
      faultKind: 'error'
    })
    expect((await emu.control('PUT', '/state', exported.body.state)).status).toBe(200)
    const [entry] = await listed()
    expect(entry).toMatchObject({
      source: 'tester',
      errorCode: 'FAULT_INJECTED',
      fault: { ruleId: 'down', kind: 'error' }
    })
    const again = await emu.control('GET', '/state?includeRequests=1')
    expect(JSON.stringify(again.body.state.requests)).toBe(JSON.stringify(requests))
  })

  // The log lives in a file of its own: an import writes both files or neither.
  it('imports a document either file refuses as nothing at all: the log and the data as they were', async () => {
    await emu.request('GET', '/.well-known/jwks.json')
    const before = (await emu.control('GET', '/state?includeRequests=1')).body.state
    expect(before.requests).toHaveLength(1)
    const row = before.requests[0] as Record<string, unknown>
    // What the data's part of each document would change, were it imported.
    const renamed = (before.products as Record<string, unknown>[]).map((product) => ({ ...product, name: 'Renamed' }))

    // The log's own file refuses it: two entries with one id.
    const twice = await emu.control('PUT', '/state', {
      ...before,
      products: renamed,
      requests: [row, { ...row, path: '/again' }]
    })
    expect(twice.status, twice.text).toBe(400)
    expect(twice.body.details).toMatchObject([{ path: '/requests/1', problem: expect.stringContaining('unique') }])

    // The data's file refuses it (only SQLite's unique index knows), after the log took its rows:
    // they are rolled back.
    const [active] = before.credentials as Record<string, unknown>[]
    const broken = await emu.control('PUT', '/state', {
      ...before,
      products: renamed,
      requests: [{ ...row, id: 99, path: '/not-kept' }],
      credentials: [active, { ...active, id: 'cred_second', keyHash: 'f'.repeat(64) }]
    })
    expect(broken.status, broken.text).toBe(400)
    expect(broken.body.details).toMatchObject([
      { path: '/credentials/1', problem: expect.stringContaining('second active') }
    ])

    const after = (await emu.control('GET', '/state?includeRequests=1')).body.state
    expect(after.products).toEqual(before.products)
    expect(after.requests).toEqual(before.requests)
  })
})
