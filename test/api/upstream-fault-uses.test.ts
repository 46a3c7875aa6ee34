import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'
import { startUpstreamDouble } from '../support/upstream-double'
import type { UpstreamDouble } from '../support/upstream-double'

// docs/upstream.md "Fault stages": an `after` rule acts on the upstream's answer. When there is
// none (nothing listens, no answer in time, a request the emulator answers itself) the rule did
// not fire: a rule with `times` keeps the call, and the inspector names no rule.
describe('an after rule with times, when the upstream gives no answer', () => {
  let upstream: UpstreamDouble
  let deadUrl: string
  beforeAll(async () => {
    upstream = await startUpstreamDouble()
    const dead = await startUpstreamDouble()
    deadUrl = dead.baseUrl
    await dead.close()
  })
  afterAll(async () => upstream.close())
  const proxy = useEmulator(() => ({
    upstream: { url: upstream.baseUrl, routes: ['/api/library/**'], firstByteTimeoutMs: 300 }
  }))
  beforeEach(async () => {
    upstream.received.length = 0
    upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
    await proxy.control('PUT', '/upstream', { url: upstream.baseUrl, routes: ['/api/library/**'] })
    await proxy.control('DELETE', '/requests')
    await proxy.control('PUT', '/faults', {
      rules: [{ id: 'once-after', route: '/api/library', kind: 'error', status: 500, stage: 'after', times: 1 }]
    })
  })

  async function rules() {
    return (await proxy.control('GET', '/faults')).body.rules as Array<{ id: string; times: number | null }>
  }

  async function lastEntry() {
    const list = await proxy.control('GET', '/requests?limit=1')
    const id = list.body.requests[0].id as number
    return (await proxy.control('GET', `/requests/${id}`)).body.entry
  }

  /** The rule's one call is still there: the next answer the upstream gives is failed, then the rule is gone. */
  async function expectRuleStillArmed() {
    expect(await rules()).toEqual([expect.objectContaining({ id: 'once-after', times: 1 })])
    await proxy.control('PUT', '/upstream', { url: upstream.baseUrl, routes: ['/api/library/**'] })
    upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
    const failed = await fetch(`${proxy.baseUrl}/api/library`)
    expect(failed.status).toBe(500)
    expect(await failed.json()).toMatchObject({ error: 'FAULT_INJECTED' })
    expect(await rules()).toEqual([])
    const passed = await fetch(`${proxy.baseUrl}/api/library`)
    expect(passed.status).toBe(200)
  }

  it('keeps its call when nothing listens (502 UPSTREAM_UNREACHABLE)', async () => {
    await proxy.control('PUT', '/upstream', { url: deadUrl, routes: ['/api/library/**'] })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(502)
    expect(response.headers.get('x-emulator-source')).toBe('emulator')
    expect(await response.json()).toMatchObject({ error: 'UPSTREAM_UNREACHABLE', reason: 'REFUSED' })
    expect(await lastEntry()).toMatchObject({ status: 502, answeredBy: 'emulator', fault: null })
    await expectRuleStillArmed()
  })

  it('keeps its call when the upstream does not answer in time (504 UPSTREAM_TIMEOUT)', async () => {
    upstream.answer(() => {
      // Never answers: the first-byte timeout (300 ms here) ends it.
    })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(504)
    expect(response.headers.get('x-emulator-source')).toBe('emulator')
    expect(await response.json()).toMatchObject({ error: 'UPSTREAM_TIMEOUT' })
    await expectRuleStillArmed()
  })

  it('keeps its call, and its entry names no rule, when the client leaves before the upstream answers', async () => {
    upstream.answer(() => {
      // Holds the request: the client gives up first.
    })
    const leaving = new AbortController()
    const call = fetch(`${proxy.baseUrl}/api/library`, { signal: leaving.signal }).catch(() => null)
    await expect.poll(() => upstream.received.length).toBe(1)
    leaving.abort()
    expect(await call).toBeNull()
    await expect.poll(async () => (await proxy.control('GET', '/requests?limit=1')).body.requests.length).toBe(1)
    expect(await lastEntry()).toMatchObject({ fault: null })
    expect(await rules()).toEqual([expect.objectContaining({ id: 'once-after', times: 1 })])
  })

  it('keeps its call on a request the emulator answers itself', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [{ id: 'once-after', route: '/api/**', kind: 'error', status: 500, stage: 'after', times: 1 }]
    })
    // Not among the forwarded routes: the emulator answers it.
    const response = await fetch(`${proxy.baseUrl}/api/license/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"license_key":"K-1"}'
    })
    expect(response.status).toBe(401)
    expect(await rules()).toEqual([expect.objectContaining({ id: 'once-after', times: 1 })])
  })

  it('a rule with calls left counts only the answers it acted on', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [{ id: 'twice-after', route: '/api/library', kind: 'error', status: 500, stage: 'after', times: 2 }]
    })
    await proxy.control('PUT', '/upstream', { url: deadUrl, routes: ['/api/library/**'] })
    expect((await fetch(`${proxy.baseUrl}/api/library`)).status).toBe(502)
    await proxy.control('PUT', '/upstream', { url: upstream.baseUrl, routes: ['/api/library/**'] })
    expect((await fetch(`${proxy.baseUrl}/api/library`)).status).toBe(500)
    expect(await rules()).toEqual([expect.objectContaining({ id: 'twice-after', times: 1 })])
  })
})
