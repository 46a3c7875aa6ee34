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

  it('an after latency rule whose client leaves during the wait drops the upstream answer and keeps serving', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [{ route: '/api/library', kind: 'latency', ms: 300, stage: 'after' }]
    })
    const leaving = new AbortController()
    const left = fetch(`${proxy.baseUrl}/api/library`, { signal: leaving.signal })
    await new Promise((resolve) => setTimeout(resolve, 100))
    leaving.abort()
    await expect(left).rejects.toThrow()
    // The wait ends; the upstream's unread answer is dropped without an error nobody hears.
    await new Promise((resolve) => setTimeout(resolve, 400))
    await proxy.control('PUT', '/faults', { rules: [] })
    const after = await fetch(`${proxy.baseUrl}/api/library`)
    expect(after.status).toBe(200)
    expect(upstream.received).toHaveLength(2)
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

// docs/api.md "match": one customer's plugin fails while the rest work, with forwarding on too.
// A forwarded body is read whole to decide, then sent on as the very bytes the plugin sent.
describe('fault rules with a match on forwarded requests', () => {
  let upstream: UpstreamDouble
  beforeAll(async () => {
    upstream = await startUpstreamDouble()
  })
  afterAll(async () => upstream.close())
  const proxy = useEmulator(() => ({ upstream: { url: upstream.baseUrl } }))
  beforeEach(async () => {
    upstream.received.length = 0
    await proxy.control('DELETE', '/faults')
  })
  const validate = (instanceId: string) =>
    fetch(`${proxy.baseUrl}/api/license/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // Spacing a parser would not keep: the upstream must get these bytes, not a re-serialised body.
      body: `{ "license_key": "PLE-MATCH-0001",  "instance_id": "${instanceId}" }`
    })

  it('a before rule fails only the matching body and never calls the upstream for it', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [
        {
          route: '/api/license/v1/validate',
          kind: 'error',
          status: 503,
          match: { field: 'instance_id', equals: 'studio-mac-01' }
        }
      ]
    })
    const hit = await validate('studio-mac-01')
    expect(hit.status).toBe(503)
    expect(await hit.json()).toMatchObject({ error: 'FAULT_INJECTED' })
    expect(upstream.received).toHaveLength(0)
    const spared = await validate('studio-pc-02')
    expect(spared.status).toBe(200)
    expect(spared.headers.get('x-emulator-source')).toBe('upstream')
    expect(upstream.received).toHaveLength(1)
    expect(upstream.received[0]?.body.toString('utf8')).toBe(
      '{ "license_key": "PLE-MATCH-0001",  "instance_id": "studio-pc-02" }'
    )
    // Past the 1 MiB this server reads to decide: refused in the contract's words, not forwarded.
    const huge = await fetch(`${proxy.baseUrl}/api/license/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ instance_id: 'studio-pc-02', padding: 'x'.repeat(1024 * 1024) })
    })
    expect(huge.status).toBe(413)
    expect(await huge.json()).toMatchObject({ ok: false, error: 'PAYLOAD_TOO_LARGE' })
    expect(upstream.received).toHaveLength(1)
  })

  it('an after rule lets the upstream act on the matching body, then fails its answer', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [
        {
          route: '/api/license/v1/validate',
          kind: 'error',
          status: 500,
          stage: 'after',
          times: 1,
          match: { field: 'instance_id', equals: 'studio-mac-01' }
        }
      ]
    })
    const spared = await validate('studio-pc-02')
    expect(spared.status).toBe(200)
    const hit = await validate('studio-mac-01')
    expect(hit.status).toBe(500)
    expect(upstream.received.map((request) => JSON.parse(request.body.toString('utf8')).instance_id)).toEqual([
      'studio-pc-02',
      'studio-mac-01'
    ])
    const list = await proxy.control('GET', '/requests?limit=1')
    const entry = (await proxy.control('GET', `/requests/${list.body.requests[0].id}`)).body.entry
    expect(entry).toMatchObject({ upstreamStatus: 200, fault: { kind: 'error', stage: 'after' } })
    expect(entry.request.body).toMatchObject({ instance_id: 'studio-mac-01' })
  })

  it('a query parameter matches a forwarded GET', async () => {
    await proxy.control('PUT', '/faults', {
      rules: [{ route: '/api/library/**', kind: 'rate_limit', match: { field: 'storefront', equals: 'acme' } }]
    })
    expect((await fetch(`${proxy.baseUrl}/api/library/products?storefront=acme`)).status).toBe(429)
    expect((await fetch(`${proxy.baseUrl}/api/library/products?storefront=other`)).status).toBe(200)
    expect(upstream.received.map((request) => request.url)).toEqual(['/api/library/products?storefront=other'])
  })
})
