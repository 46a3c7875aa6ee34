import { request as httpRequest } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'

import { addFile, createCustomer, getLibrary, libraryTokenOf, localPath, purchase } from '../support/commerce'
import { startEmulator, useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'
import { rawRequest } from '../support/raw-http'

// Fault injection (docs/api.md section 6): each kind as a real HTTP client sees it. No timing
// is asserted; the faults use small waits so the suite stays fast.

interface ChunkedResult {
  status: number
  headers: IncomingHttpHeaders
  chunks: Buffer[]
  text: string
}

/** One request through node:http, keeping every read apart: how a client on a slow link sees the body. */
function readInChunks(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {}
): Promise<ChunkedResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'GET',
        headers: {
          ...(options.body !== undefined
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(options.body)) }
            : {}),
          ...options.headers
        }
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            chunks,
            text: Buffer.concat(chunks).toString('utf8')
          })
        )
        res.on('error', reject)
      }
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

/** Starts a GET and hangs up as soon as the first piece of the body arrives. */
function hangUpAfterFirstChunk(url: string): Promise<{ status: number; received: number }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, (res) => {
      res.once('data', (chunk: Buffer) => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, received: chunk.length })
      })
      res.on('error', () => undefined)
    })
    req.on('error', (error) => {
      // The hang-up itself surfaces as an abort error on our side: expected.
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error)
    })
    req.end()
  })
}

const PUBLIC_KEY = '/api/license/v1/public-key'
const JWKS = '/.well-known/jwks.json'

let credential: PluginCredential
let licenseKey: string

const emu = useEmulator()
beforeAll(async () => {
  credential = await productWithCredential(emu, 'Fault Line')
  const customer = await createCustomer(emu)
  licenseKey = (await purchase(emu, customer.id, credential.productId, { maxActivations: 10 })).license.key
})
afterEach(async () => {
  expect((await emu.control('DELETE', '/faults')).status).toBe(200)
})

async function setRules(rules: unknown[]) {
  const result = await emu.control('PUT', '/faults', { rules })
  expect(result.status, result.text).toBe(200)
  return result.body.rules as Array<Record<string, unknown> & { id: string }>
}

describe('fault rules on the control plane', () => {
  it('has no rules by default', async () => {
    const listed = await emu.control('GET', '/faults')
    expect(listed.status).toBe(200)
    expect(listed.body).toEqual({ ok: true, rules: [] })
  })

  it('replaces the rules, answering them with generated ids and defaults; GET lists them in order', async () => {
    const stored = await setRules([
      { route: '/api/license/v1/*', kind: 'error', method: 'post' },
      { route: '/api/**', kind: 'rate_limit', probability: 0.25 }
    ])
    expect(stored).toHaveLength(2)
    expect(stored[0]).toMatchObject({
      method: 'POST',
      route: '/api/license/v1/*',
      kind: 'error',
      status: 503,
      probability: 1
    })
    expect(stored[1]).toMatchObject({
      method: null,
      kind: 'rate_limit',
      retryAfterS: 1,
      probability: 0.25,
      status: null
    })
    expect(stored[0]!.id).not.toBe(stored[1]!.id)
    expect((await emu.control('GET', '/faults')).body.rules).toEqual(stored)

    // A second PUT replaces, it does not append.
    const replaced = await setRules([{ route: '/x', kind: 'latency', ms: 50 }])
    expect((await emu.control('GET', '/faults')).body.rules).toEqual(replaced)
  })

  it('accepts the listed rules back unchanged, ids included', async () => {
    const stored = await setRules([{ route: '/api/**', kind: 'trickle', ms: 50, jitterMs: 10 }])
    const again = await emu.control('PUT', '/faults', { rules: stored })
    expect(again.status).toBe(200)
    expect(again.body.rules).toEqual(stored)
  })

  it('removes one rule by id, 404 FAULT_RULE_NOT_FOUND for an unknown id, and all at once', async () => {
    const [first, second] = await setRules([
      { route: '/a', kind: 'error' },
      { route: '/b', kind: 'offline' }
    ])
    const removed = await emu.control('DELETE', `/faults/${first!.id}`)
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ ok: true, removed: 1, rules: [second] })

    const unknown = await emu.control('DELETE', `/faults/${first!.id}`)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ ok: false, error: 'FAULT_RULE_NOT_FOUND' })
    expect(typeof unknown.body.message).toBe('string')

    await setRules([
      { route: '/a', kind: 'error' },
      { route: '/b', kind: 'error' }
    ])
    const cleared = await emu.control('DELETE', '/faults')
    expect(cleared.body).toEqual({ ok: true, removed: 2, rules: [] })
    expect((await emu.control('GET', '/faults')).body.rules).toEqual([])
  })

  it('refuses invalid rules with 400 VALIDATION_ERROR and keeps the rules in force', async () => {
    const kept = await setRules([{ route: '/kept', kind: 'error' }])
    const invalid: unknown[] = [
      {},
      { rules: 'none' },
      { rules: [{ route: '/a', kind: 'explode' }] },
      { rules: [{ kind: 'error' }] },
      { rules: [{ route: 'no-leading-slash', kind: 'error' }] },
      { rules: [{ route: '/a?query=1', kind: 'error' }] },
      { rules: [{ route: '/a', kind: 'error', status: 302 }] },
      { rules: [{ route: '/a', kind: 'error', status: 600 }] },
      { rules: [{ route: '/a', kind: 'error', probability: 1.5 }] },
      { rules: [{ route: '/a', kind: 'error', probability: -0.1 }] },
      { rules: [{ route: '/a', kind: 'latency', ms: -1 }] },
      { rules: [{ route: '/a', kind: 'latency', ms: '50' }] },
      { rules: [{ route: '/a', kind: 'error', method: 'GET POST' }] },
      { rules: [{ route: '/a', kind: 'error', colour: 'red' }] },
      // Fields of another kind: a mistake worth hearing about, not a silent no-op.
      { rules: [{ route: '/a', kind: 'latency', status: 500 }] },
      { rules: [{ route: '/a', kind: 'error', retryAfterS: 5 }] },
      {
        rules: [
          { id: 'same', route: '/a', kind: 'error' },
          { id: 'same', route: '/b', kind: 'error' }
        ]
      }
    ]
    for (const body of invalid) {
      const result = await emu.control('PUT', '/faults', body)
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body, JSON.stringify(body)).toMatchObject({ ok: false, error: 'VALIDATION_ERROR' })
      expect(typeof result.body.message).toBe('string')
    }
    expect((await emu.control('GET', '/faults')).body.rules).toEqual(kept)
  })

  it('needs the admin token like the rest of the control plane', async () => {
    const result = await emu.request('PUT', '/_emulator/faults', {
      body: { rules: [{ route: '**', kind: 'offline' }] }
    })
    expect(result.status).toBe(401)
    expect((await emu.request('GET', '/_emulator/faults')).status).toBe(401)
    expect((await emu.control('GET', '/faults')).body.rules).toEqual([])
  })

  it('is cleared by a control-plane reset', async () => {
    await setRules([{ route: '**', kind: 'error' }])
    expect((await emu.control('POST', '/reset')).status).toBe(200)
    expect((await emu.control('GET', '/faults')).body.rules).toEqual([])
    // The reset emptied the data; this suite's fixtures come back for the tests that follow.
    credential = await productWithCredential(emu, 'Fault Line')
    const customer = await createCustomer(emu)
    licenseKey = (await purchase(emu, customer.id, credential.productId, { maxActivations: 10 })).license.key
  })
})

describe('each fault kind, as the client sees it', () => {
  it('latency: the answer still arrives, and it is the real one', async () => {
    await setRules([{ route: '/api/license/v1/validate', kind: 'latency', ms: 50, jitterMs: 10 }])
    const plugin = pluginClient(emu, credential)
    const validated = await plugin.validate(licenseKey)
    expect(validated.status).toBe(200)
    expect(validated.body).toMatchObject({ ok: true, valid: true, code: 'VALID' })
    const activated = await plugin.activate(licenseKey, 'latency-machine')
    expect(activated.status).toBe(201)
  })

  it('error: the chosen status with a FAULT_INJECTED body', async () => {
    await setRules([{ route: '/api/license/v1/activate', kind: 'error', status: 502 }])
    const result = await pluginClient(emu, credential).activate(licenseKey, 'error-machine')
    expect(result.status).toBe(502)
    expect(result.headers.get('content-type')).toMatch(/^application\/json/)
    expect(result.body).toMatchObject({ ok: false, error: 'FAULT_INJECTED' })
    expect(typeof result.body.message).toBe('string')
    // The request never reached the service: nothing was activated.
    const validated = await pluginClient(emu, credential).validate(licenseKey, 'error-machine')
    expect(validated.body.code).toBe('NOT_ACTIVATED')
  })

  it('error: 503 by default, also before authentication (it is the network, not the service)', async () => {
    await setRules([{ route: '/api/license/v1/**', kind: 'error' }])
    const result = await emu.request('POST', '/api/license/v1/validate', { body: { license_key: 'x' } })
    expect(result.status).toBe(503)
    expect(result.body.error).toBe('FAULT_INJECTED')
  })

  it('rate_limit: 429, a Retry-After header and RATE_LIMITED with retryAfter', async () => {
    await setRules([{ route: '/api/license/v1/validate', kind: 'rate_limit', retryAfterS: 7 }])
    const result = await pluginClient(emu, credential).validate(licenseKey)
    expect(result.status).toBe(429)
    expect(result.headers.get('retry-after')).toBe('7')
    expect(result.body).toMatchObject({ ok: false, error: 'RATE_LIMITED', retryAfter: 7 })
    expect(typeof result.body.message).toBe('string')

    await setRules([{ route: '/api/license/v1/validate', kind: 'rate_limit' }])
    const byDefault = await pluginClient(emu, credential).validate(licenseKey)
    expect(byDefault.headers.get('retry-after')).toBe('1')
    expect(byDefault.body.retryAfter).toBe(1)
  })

  it('offline: the connection closes with no HTTP response at all', async () => {
    await setRules([{ route: '/api/license/v1/activate', kind: 'offline' }])
    await expect(pluginClient(emu, credential).activate(licenseKey, 'offline-machine')).rejects.toThrow()

    const raw = rawRequest(emu.baseUrl, { method: 'GET', path: '/api/license/v1/activate' })
    await expect(raw).rejects.toMatchObject({ code: expect.stringMatching(/^(ECONNRESET|EPIPE)$/) })
    // Other routes are untouched.
    expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(200)
  })

  it('offline after a wait: still no response', async () => {
    await setRules([{ route: JWKS, kind: 'offline', ms: 30 }])
    await expect(fetch(emu.baseUrl + JWKS)).rejects.toThrow()
  })

  it('trickle: the body arrives complete, identical to the unfaulted one, in several pieces', async () => {
    const plain = await readInChunks(emu.baseUrl + PUBLIC_KEY)
    expect(plain.status).toBe(200)

    await setRules([{ route: PUBLIC_KEY, kind: 'trickle', ms: 50 }])
    const slow = await readInChunks(emu.baseUrl + PUBLIC_KEY)
    expect(slow.status).toBe(200)
    expect(slow.text).toBe(plain.text)
    expect(slow.chunks.length).toBeGreaterThan(1)
    expect(slow.headers['content-length']).toBe(String(Buffer.byteLength(plain.text)))
    expect(slow.headers['content-type']).toBe(plain.headers['content-type'])
  })

  it('trickle: a licensing answer arrives whole through fetch', async () => {
    await setRules([{ route: '/api/license/v1/*', kind: 'trickle', ms: 50, method: 'POST' }])
    const result = await pluginClient(emu, credential).validate(licenseKey)
    expect(result.status).toBe(200)
    expect(result.body).toMatchObject({ ok: true, valid: true, code: 'VALID' })
  })

  it('trickle: an error answer is slowed too, and stays the same error body', async () => {
    const request = { method: 'POST', body: JSON.stringify({ license_key: 'no-credentials' }) }
    const plain = await readInChunks(emu.baseUrl + '/api/license/v1/validate', request)
    expect(plain.status).toBe(401)

    await setRules([{ route: '/api/license/v1/*', kind: 'trickle', ms: 50 }])
    const slow = await readInChunks(emu.baseUrl + '/api/license/v1/validate', request)
    expect(slow.status).toBe(401)
    expect(slow.text).toBe(plain.text)
    expect(slow.chunks.length).toBeGreaterThan(1)
    expect(JSON.parse(slow.text)).toMatchObject({ ok: false, error: 'PRODUCT_CREDENTIAL_INVALID' })
  })

  it('trickle: a streamed download arrives byte for byte', async () => {
    const file = await addFile(emu, credential.productId, { sizeBytes: 5000, platform: 'linux' })
    const customer = await createCustomer(emu)
    await purchase(emu, customer.id, credential.productId)
    const library = await getLibrary(emu, await libraryTokenOf(emu, customer.id))
    const link = (library.body.products[0].downloads as Array<{ file_id: string; url: string }>).find(
      (d) => d.file_id === file.id
    )
    const url = emu.baseUrl + localPath(link!.url)
    const whole = Buffer.from(await (await fetch(url)).arrayBuffer())
    expect(whole.length).toBe(5000)

    await setRules([{ route: '/api/downloads/*', kind: 'trickle', ms: 50 }])
    const slow = await readInChunks(url)
    expect(slow.status).toBe(200)
    expect(slow.headers['content-length']).toBe('5000')
    expect(Buffer.concat(slow.chunks).equals(whole)).toBe(true)
    expect(slow.chunks.length).toBeGreaterThan(1)
  })
})

describe('matching', () => {
  it('filters by method, in any case', async () => {
    await setRules([{ route: '/api/license/v1/**', kind: 'error', method: 'post' }])
    expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(200)
    expect((await pluginClient(emu, credential).validate(licenseKey)).status).toBe(503)
  })

  it('`*` stays within a segment, `**` crosses segments', async () => {
    await setRules([{ route: '/api/license/*', kind: 'error' }])
    expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(200)

    await setRules([{ route: '/api/license/**', kind: 'error' }])
    expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(503)

    await setRules([{ route: '/api/*/v1/public-key', kind: 'error' }])
    expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(503)
  })

  it('matches the path without its query string', async () => {
    await setRules([{ route: JWKS, kind: 'error', status: 500 }])
    expect((await emu.request('GET', `${JWKS}?cache=no`)).status).toBe(500)
  })

  it('faults a path no route serves, as the network would', async () => {
    await setRules([{ route: '/api/**', kind: 'error', status: 500 }])
    expect((await emu.request('GET', '/api/no-such-route')).status).toBe(500)
    await emu.control('DELETE', '/faults')
    expect((await emu.request('GET', '/api/no-such-route')).status).toBe(404)
  })

  it('the first matching rule wins', async () => {
    await setRules([
      { route: PUBLIC_KEY, kind: 'error', status: 418 },
      { route: '/api/**', kind: 'error', status: 500 }
    ])
    expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(418)
    expect((await emu.request('POST', '/api/license/v1/validate', { body: {} })).status).toBe(500)
  })

  it("a body-field match fails one customer's plugin while another's works; the request is read first", async () => {
    await setRules([
      {
        method: 'POST',
        route: '/api/license/v1/*',
        kind: 'error',
        status: 502,
        match: { field: 'instance_id', equals: 'broken-studio' }
      }
    ])
    const plugin = pluginClient(emu, credential)
    expect((await plugin.activate(licenseKey, 'broken-studio')).status).toBe(502)
    expect((await plugin.activate(licenseKey, 'working-studio')).status).toBe(201)
    // A query parameter of that name matches a call without a body.
    await setRules([{ route: PUBLIC_KEY, kind: 'error', status: 500, match: { field: 'tenant', equals: 'a' } }])
    expect((await emu.request('GET', `${PUBLIC_KEY}?tenant=a`)).status).toBe(500)
    expect((await emu.request('GET', `${PUBLIC_KEY}?tenant=b`)).status).toBe(200)
  })

  it('refuses a match on a credential or a token, so no rule, export or fault label ever holds one', async () => {
    const jwt = `eyJhbGciOiJFZERTQSJ9.${'eyJzdWIiOiJ4In0'}.${'c2lnbmF0dXJlc2lnbmF0dXJl'}`
    for (const match of [
      { field: 'token', equals: 'opaque-value' },
      { field: 'credentials.plugin_secret', equals: 'whatever' },
      { field: 'license_key', equals: jwt },
      { field: 'instance_id', equals: credential.pluginKey }
    ]) {
      const refused = await emu.control('PUT', '/faults', { rules: [{ route: '**', kind: 'error', match }] })
      expect(refused.status, JSON.stringify(match)).toBe(400)
      expect(refused.body).toMatchObject({ ok: false, error: 'VALIDATION_ERROR' })
      expect(JSON.stringify(refused.body)).not.toContain(match.equals)
    }
    expect((await emu.control('GET', '/faults')).body.rules).toEqual([])
  })

  it('the next N calls: the rule answers them, then removes itself (the list says so)', async () => {
    await setRules([{ route: PUBLIC_KEY, kind: 'error', status: 500, times: 2 }])
    expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(500)
    expect((await emu.control('GET', '/faults')).body.rules[0].times).toBe(1)
    expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(500)
    expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(200)
    expect((await emu.control('GET', '/faults')).body.rules).toEqual([])
  })

  it('probability 0 never fires', async () => {
    await setRules([{ route: '**', kind: 'offline', probability: 0 }])
    for (let i = 0; i < 20; i++) expect((await emu.request('GET', PUBLIC_KEY)).status).toBe(200)
  })

  it('never touches the control plane, the OpenAPI document or the UI, even under `**`', async () => {
    await setRules([{ route: '**', kind: 'offline' }])
    await expect(fetch(emu.baseUrl + JWKS)).rejects.toThrow()

    expect((await emu.control('GET', '/faults')).status).toBe(200)
    expect((await emu.request('GET', '/_emulator/health')).status).toBe(200)
    // The same route reached through an escaped path is still the control plane.
    expect((await rawRequest(emu.baseUrl, { method: 'GET', path: '/%5Femulator/health' })).status).toBe(200)
    expect((await emu.request('GET', '/openapi.json')).status).toBe(200)
    expect((await emu.request('GET', '/')).status).toBe(200)

    // So the rule can always be removed again.
    expect((await emu.control('DELETE', '/faults')).status).toBe(200)
    expect((await emu.request('GET', JWKS)).status).toBe(200)
  })
})

describe('a client that hangs up mid-fault', () => {
  it('during latency: the server stays up and the abandoned request never reaches the service', async () => {
    await setRules([{ route: '/api/license/v1/activate', kind: 'latency', ms: 200 }])
    const plugin = pluginClient(emu, credential)
    // The client's own timeout, shorter than the latency: the usual way a plugin gives up.
    const abandoned = fetch(emu.baseUrl + '/api/license/v1/activate', {
      method: 'POST',
      headers: { ...plugin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ license_key: licenseKey, instance_id: 'gave-up' }),
      signal: AbortSignal.timeout(20)
    })
    await expect(abandoned).rejects.toThrow()

    // A patient client under the same rule is served normally.
    expect((await plugin.activate(licenseKey, 'patient')).status).toBe(201)
    expect((await plugin.validate(licenseKey, 'patient')).body.code).toBe('VALID')
    expect((await plugin.validate(licenseKey, 'gave-up')).body.code).toBe('NOT_ACTIVATED')
    expect((await emu.request('GET', '/_emulator/health')).status).toBe(200)
  })

  it('during trickle: the server stays up and keeps serving', async () => {
    await setRules([{ route: PUBLIC_KEY, kind: 'trickle', ms: 100 }])
    const first = await hangUpAfterFirstChunk(emu.baseUrl + PUBLIC_KEY)
    expect(first.status).toBe(200)
    expect(first.received).toBeGreaterThan(0)

    // The next trickled answer, which takes longer than the rest of the abandoned one, is whole.
    const plain = (await emu.control('GET', '/health')).status
    expect(plain).toBe(200)
    const next = await readInChunks(emu.baseUrl + PUBLIC_KEY)
    expect(next.status).toBe(200)
    expect(JSON.parse(next.text)).toMatchObject({ ok: true, alg: 'EdDSA' })
  })

  it('during a trickled download: the server stays up', async () => {
    const file = await addFile(emu, credential.productId, { sizeBytes: 50_000, platform: 'windows' })
    const customer = await createCustomer(emu)
    await purchase(emu, customer.id, credential.productId)
    const library = await getLibrary(emu, await libraryTokenOf(emu, customer.id))
    const link = (library.body.products[0].downloads as Array<{ file_id: string; url: string }>).find(
      (d) => d.file_id === file.id
    )
    const url = emu.baseUrl + localPath(link!.url)

    await setRules([{ route: '/api/downloads/**', kind: 'trickle', ms: 100 }])
    expect((await hangUpAfterFirstChunk(url)).status).toBe(200)
    const next = await readInChunks(url)
    expect(Buffer.concat(next.chunks).length).toBe(50_000)
  })

  it('leaves no error in the log for any of it', () => {
    expect(emu.logOutput()).not.toMatch(/"level":(50|60)/)
  })
})

describe('closing the server', () => {
  it('does not wait for a long trickle or latency to finish', async () => {
    const own = await startEmulator()
    await own.control('PUT', '/faults', {
      rules: [
        { route: PUBLIC_KEY, kind: 'trickle', ms: 600_000 },
        { route: JWKS, kind: 'latency', ms: 600_000 }
      ]
    })
    // A trickle is observably under way once its first piece arrives.
    const trickling = new Promise<{ firstChunk: Promise<void>; outcome: Promise<string> }>((resolve, reject) => {
      const req = httpRequest(own.baseUrl + PUBLIC_KEY, (res) => {
        const firstChunk = new Promise<void>((arrived) => res.once('data', () => arrived()))
        const outcome = new Promise<string>((settled) => {
          res.on('end', () => settled('ended'))
          res.on('error', () => settled('cut off'))
          res.on('close', () => settled(res.complete ? 'ended' : 'cut off'))
        })
        resolve({ firstChunk, outcome })
      })
      req.on('error', reject)
      req.end()
    })
    const { firstChunk, outcome } = await trickling
    await firstChunk
    const waiting = fetch(own.baseUrl + JWKS).then(
      () => 'answered',
      () => 'dropped'
    )
    // A round trip on another connection, so the latency request has most likely arrived.
    expect((await own.request('GET', '/_emulator/health')).status).toBe(200)

    await own.close()
    expect(await outcome).toBe('cut off')
    expect(await waiting).toBe('dropped')
  })
})
