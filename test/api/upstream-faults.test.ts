import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'
import { startUpstreamDouble } from '../support/upstream-double'
import type { UpstreamDouble } from '../support/upstream-double'

// docs/upstream.md "Fault stages": a `before` rule answers and the upstream is never called; an
// `after` rule lets the upstream act, then decides what the client hears. The upstream's own
// request count tells the two apart. The inspector says who answered and which stage fired.
describe('fault stages on forwarded requests, and the inspector', () => {
  let upstream: UpstreamDouble
  beforeAll(async () => {
    upstream = await startUpstreamDouble()
  })
  afterAll(async () => upstream.close())
  const proxy = useEmulator(() => ({ upstream: { url: upstream.baseUrl, routes: ['/api/library/**'] } }))
  beforeEach(async () => {
    upstream.received.length = 0
    await proxy.control('DELETE', '/faults')
    await proxy.control('DELETE', '/requests')
  })

  async function lastEntry() {
    const list = await proxy.control('GET', '/requests?limit=1')
    const id = list.body.requests[0].id as number
    return (await proxy.control('GET', `/requests/${id}`)).body.entry
  }

  it('a before rule answers without calling the upstream', async () => {
    await proxy.control('PUT', '/faults', { rules: [{ route: '/api/library', kind: 'error', status: 503 }] })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(503)
    expect(response.headers.get('x-emulator-source')).toBe('emulator')
    expect(upstream.received).toHaveLength(0)
    const entry = await lastEntry()
    expect(entry).toMatchObject({
      answeredBy: 'emulator',
      upstreamStatus: null,
      fault: { kind: 'error', stage: 'before' }
    })
  })

  it('an after error rule lets the upstream act, then fails the answer', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [{ route: '/api/library', kind: 'error', status: 500, stage: 'after' }]
    })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ ok: false, error: 'FAULT_INJECTED' })
    expect(response.headers.get('x-emulator-source')).toBe('emulator')
    expect(upstream.received).toHaveLength(1)
    const entry = await lastEntry()
    expect(entry).toMatchObject({
      answeredBy: 'emulator',
      upstreamStatus: 200,
      fault: { kind: 'error', stage: 'after' }
    })
  })

  it('an after rate_limit rule answers 429 with Retry-After once the upstream acted', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [{ route: '/api/library', kind: 'rate_limit', retryAfterS: 7, stage: 'after' }]
    })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(429)
    expect(response.headers.get('retry-after')).toBe('7')
    expect(upstream.received).toHaveLength(1)
  })

  it('an after offline rule drops the connection once the upstream acted', async () => {
    await proxy.control('PUT', '/faults', { rules: [{ route: '/api/library', kind: 'offline', stage: 'after' }] })
    await expect(fetch(`${proxy.baseUrl}/api/library`)).rejects.toThrow()
    expect(upstream.received).toHaveLength(1)
  })

  it('an after latency rule passes the upstream answer on, late', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [{ route: '/api/library', kind: 'latency', ms: 200, stage: 'after' }]
    })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(200)
    expect(response.headers.get('x-emulator-source')).toBe('upstream')
    expect(await response.json()).toEqual({ ok: true })
    expect(upstream.received).toHaveLength(1)
    const entry = await lastEntry()
    expect(entry).toMatchObject({ answeredBy: 'upstream', fault: { kind: 'latency', stage: 'after' } })
  })

  it('an after rule does not fire on a request the emulator answers itself', async () => {
    await proxy.control('PUT', '/faults', { rules: [{ route: '/api/**', kind: 'error', status: 500, stage: 'after' }] })
    const response = await fetch(`${proxy.baseUrl}/api/license/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"license_key":"K-1"}'
    })
    expect(response.status).toBe(401)
    expect(upstream.received).toHaveLength(0)
  })

  it('records a forwarded exchange: answeredBy upstream, its status and time, a decompressed redacted body', async () => {
    const secretToken = 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJjYW5hcnkifQ.c2lnbmF0dXJlLWNhbmFyeS14eXo'
    const gzipped = gzipSync(
      Buffer.from(JSON.stringify({ ok: true, license_token: secretToken, note: 'from upstream' }))
    )
    upstream.answer((_request, response) => {
      response.writeHead(201, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipped)
    })
    const response = await fetch(`${proxy.baseUrl}/api/library/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secretToken}` },
      body: JSON.stringify({ claim_token: 'claim-canary-0123456789abcdef' })
    })
    expect(response.status).toBe(201)
    const entry = await lastEntry()
    expect(entry).toMatchObject({ answeredBy: 'upstream', upstreamStatus: 201, status: 201 })
    expect(entry.upstreamMs).toBeGreaterThanOrEqual(0)
    expect(entry.response.body).toMatchObject({ ok: true, note: 'from upstream' })
    expect(entry.request.body).toBeTypeOf('object')
    const text = JSON.stringify(entry)
    expect(text).not.toContain(secretToken)
    expect(text).not.toContain('claim-canary-0123456789abcdef')
    const filtered = await proxy.control('GET', '/requests?answeredBy=upstream')
    expect(filtered.body.requests.map((row: { id: number }) => row.id)).toContain(entry.id)
    expect((await proxy.control('GET', '/requests?answeredBy=emulator')).body.requests).toHaveLength(0)
  })
})
