import { afterEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'

// docs/upstream.md "Failures": an upstream URL that points back at the emulator gets 508
// UPSTREAM_LOOP, and that answer is the emulator's own (no upstream answered): marked
// `x-emulator-source: emulator` on the wire and `answeredBy: emulator` in the inspector.
describe('an upstream that points back at the emulator', () => {
  const proxy = useEmulator()
  afterEach(async () => {
    await proxy.control('PUT', '/upstream', { url: null })
    await proxy.control('DELETE', '/faults')
    await proxy.control('DELETE', '/requests')
  })

  it("answers 508 UPSTREAM_LOOP as the emulator's answer, on the wire and in the inspector", async () => {
    await proxy.control('PUT', '/upstream', { url: proxy.baseUrl })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(508)
    expect(response.headers.get('x-emulator-source')).toBe('emulator')
    expect(response.headers.get('x-emulator-loop')).toBeNull()
    expect(await response.json()).toMatchObject({ ok: false, error: 'UPSTREAM_LOOP' })

    // Two arrivals: the plugin's request, and the same request come back through the upstream URL.
    const entries = (await proxy.control('GET', '/requests')).body.requests as Array<Record<string, unknown>>
    expect(entries).toHaveLength(2)
    for (const entry of entries) {
      expect(entry).toMatchObject({ status: 508, answeredBy: 'emulator', upstreamStatus: null, upstreamMs: null })
    }
    // Nothing the upstream answered: the drift check saw no exchange.
    expect((await proxy.control('GET', '/drift')).body.coverage.seen).toBe(0)
  })

  it('an after rule with times keeps its call: there was no upstream answer to act on', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [{ id: 'once-after', route: '/api/library', kind: 'error', status: 500, stage: 'after', times: 1 }]
    })
    await proxy.control('PUT', '/upstream', { url: proxy.baseUrl })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(508)
    expect((await proxy.control('GET', '/faults')).body.rules).toEqual([
      expect.objectContaining({ id: 'once-after', times: 1 })
    ])
  })
})
