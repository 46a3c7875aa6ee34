import { afterAll, describe, expect, it, vi } from 'vitest'

import { requestLogPathFor } from '../../src/core/store/request-log-database'
import { withReadOnlyDatabase } from '../support/database'
import { startEmulator, useEmulator, withEmulator } from '../support/emulator'
import type { HttpResult, TestEmulator } from '../support/emulator'
import { openEventStream } from '../support/event-stream'
import type { StreamEvent } from '../support/event-stream'
import { pluginClient, productWithCredential } from '../support/plugin-client'

// The request inspector (docs/api.md section 6): every service API request, redacted, listed,
// filtered, paged and streamed; never a usable credential anywhere it shows or stores.

/**
 * After fetch aborts a response, undici opens a spare connection that never carries a request;
 * Node's server.close() waits for it (not idle, no request) until the client drops it. The
 * emulator is not at fault, so the tests that abort close their connections first.
 */
async function closeAfterAborts(emu: TestEmulator): Promise<void> {
  emu.app.server.closeAllConnections()
  await emu.close()
}

/** Waits for the batch writer: what has finished is written (and streamed) now. */
const flushed = (emu: TestEmulator) => emu.app.core.requests.flush()

async function listRequests(emu: TestEmulator, query = ''): Promise<HttpResult> {
  flushed(emu)
  const listed = await emu.control('GET', `/requests${query}`)
  expect(listed.status).toBe(200)
  return listed
}

/** The request log's live stream. */
const openStream = (emu: TestEmulator, query = '', headers?: Record<string, string>) =>
  openEventStream(emu, `/_emulator/requests/stream${query}`, headers)

/** Every string in a JSON value that is a credential or token, whatever field it sits in. */
function harvestSecrets(value: unknown, into: Set<string>): Set<string> {
  const secretFields =
    /^(?:pluginKey|pluginSecret|productKey|ProductSecret|token|libraryToken|library_token|download_token|license_token|claimToken|oneTimeReveal)$/
  const walk = (item: unknown, field: string) => {
    if (typeof item === 'string') {
      if (
        secretFields.test(field) ||
        /^(?:pk|sk|clm)_[A-Za-z0-9]{16,}$/.test(item) ||
        /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(item)
      )
        into.add(item)
      for (const match of item.matchAll(/(?:download_token|token)=([^&\s]{16,})/g))
        into.add(decodeURIComponent(match[1] as string))
    } else if (Array.isArray(item)) item.forEach((entry) => walk(entry, field))
    else if (item && typeof item === 'object') for (const [key, entry] of Object.entries(item)) walk(entry, key)
  }
  walk(value, '')
  return into
}

describe('the request inspector records plugin calls', () => {
  const emu = useEmulator()
  // Runs before useEmulator's afterAll closes it (see closeAfterAborts).
  afterAll(() => emu.app.server.closeAllConnections())

  it('shows activate and validate with surface, status, auth kind, product and redacted bodies', async () => {
    const credential = await productWithCredential(emu, 'Inspector Synth')
    const customer = await emu.control('POST', '/customers', { email: 'inspect@example.test' })
    const bought = await emu.control('POST', '/purchases', {
      customerId: customer.body.customer.id,
      productId: credential.productId
    })
    const licenseKey = bought.body.license.key as string
    const plugin = pluginClient(emu, credential)
    const activated = await plugin.activate(licenseKey, 'machine-1', { nonce: 'n-1' })
    expect(activated.status).toBe(201)
    const validated = await plugin.validate(licenseKey, 'machine-1')
    expect(validated.status).toBe(200)

    const listed = await listRequests(emu, '?surface=license-v1')
    expect(listed.body.ok).toBe(true)
    const [validateRow, activateRow] = listed.body.requests
    expect(activateRow).toMatchObject({
      surface: 'license-v1',
      method: 'POST',
      path: '/api/license/v1/activate',
      status: 201,
      authKind: 'product-credential',
      productId: credential.productId
    })
    expect(validateRow).toMatchObject({
      path: '/api/license/v1/validate',
      status: 200,
      authKind: 'product-credential',
      productId: credential.productId
    })
    expect(typeof activateRow.durationMs).toBe('number')
    expect(Number.isNaN(Date.parse(activateRow.at))).toBe(false)

    const detail = await emu.control('GET', `/requests/${activateRow.id}`)
    expect(detail.status).toBe(200)
    const entry = detail.body.entry
    expect(entry.request.body).toEqual({ license_key: licenseKey, instance_id: 'machine-1', nonce: 'n-1' })
    expect(entry.request.bodyInfo).toMatchObject({ kind: 'json', truncated: false })
    expect(entry.request.headers['x-svc-app-id']).toBe(credential.appId)
    expect(entry.request.headers['x-svc-plugin-key']).toBe(
      `${credential.pluginKey.slice(0, 8)}...${credential.pluginKey.slice(-4)}`
    )
    expect(entry.request.headers['x-svc-plugin-secret']).not.toContain(credential.pluginSecret)
    expect(entry.response.body).toMatchObject({ ok: true, activated: true, code: 'VALID' })
    expect(entry.response.body.license_token).not.toBe(activated.body.license_token)
    expect(entry.response.headers['content-type']).toContain('application/json')
    expect(detail.text).not.toContain(credential.pluginSecret)
    expect(detail.text).not.toContain(activated.body.license_token)
  })

  it('records requests that fail validation, unknown routes and malformed JSON', async () => {
    const credential = await productWithCredential(emu)
    const plugin = pluginClient(emu, credential)
    expect((await plugin.call('activate', { instance_id: 'x' })).status).toBe(400)
    expect((await emu.request('GET', '/api/nowhere?x=1')).status).toBe(404)
    const malformed = await emu.request('POST', '/api/license/v1/validate', {
      rawBody: '{"license_key": "abc", ',
      headers: { ...plugin.headers, 'content-type': 'application/json' }
    })
    expect(malformed.status).toBe(400)

    const invalid = (await listRequests(emu, '?status=400&path=/activate')).body.requests[0]
    expect(invalid).toMatchObject({ surface: 'license-v1', status: 400, productId: credential.productId })
    const invalidEntry = (await emu.control('GET', `/requests/${invalid.id}`)).body.entry
    expect(invalidEntry.response.body.error).toBe('VALIDATION_ERROR')
    expect(invalidEntry.request.body).toEqual({ instance_id: 'x' })

    const unrouted = (await listRequests(emu, '?status=404&surface=other')).body.requests[0]
    expect(unrouted).toMatchObject({ method: 'GET', path: '/api/nowhere?x=1', authKind: 'none', productId: null })

    const bad = (await listRequests(emu, '?path=/validate&status=4xx')).body.requests[0]
    const badEntry = (await emu.control('GET', `/requests/${bad.id}`)).body.entry
    expect(badEntry.request.bodyInfo.kind).toBe('text')
    expect(badEntry.request.body).toBe('{"license_key": "abc", ')
  })

  it('records a response the client walked away from', async () => {
    const credential = await productWithCredential(emu, 'Huge Sampler')
    await emu.control('POST', `/products/${credential.productId}/files`, {
      version: '2.0.0',
      platform: 'linux',
      sizeBytes: 256 * 1024 * 1024
    })
    const customer = await emu.control('POST', '/customers', { email: 'walker@example.test' })
    await emu.control('POST', '/purchases', { customerId: customer.body.customer.id, productId: credential.productId })
    const token = await emu.control('POST', `/customers/${customer.body.customer.id}/library-token`)
    const library = await emu.request('GET', '/api/library', { token: token.body.libraryToken })
    const url = new URL(library.body.products[0].downloads[0].url)

    const controller = new AbortController()
    const response = await fetch(emu.baseUrl + url.pathname + url.search, { signal: controller.signal })
    expect(response.status).toBe(200)
    await response.body?.getReader().read()
    controller.abort()

    // The server hears of the closed connection when it does; wait for the entry to be there.
    const row = await vi.waitFor(async () => {
      const rows = (await listRequests(emu, '?surface=downloads')).body.requests
      expect(rows).toHaveLength(1)
      return rows[0]
    })
    expect(row).toMatchObject({
      status: 200,
      authKind: 'library-token',
      path: expect.stringContaining('download_token=eyJhbGci...')
    })
    const entry = (await emu.control('GET', `/requests/${row.id}`)).body.entry
    expect(entry.response.bodyInfo).toMatchObject({ kind: 'stream', bytes: 256 * 1024 * 1024 })
    expect(entry.response.bodyInfo.note).toContain('closed before the response was complete')
  })

  it('tells auth kinds apart from what each request presents', async () => {
    const credential = await productWithCredential(emu)
    const developer = credential.developer
    await emu.request('GET', `/api/developer/plugin-keys/products/${credential.productId}`, { token: developer.token })
    await emu.request('POST', '/api/license/v1/validate', {
      body: { license_key: 'nope' },
      headers: {
        authorization: `Bearer ${credential.pluginKey}`,
        'x-svc-app-id': credential.appId,
        'x-svc-plugin-secret': credential.pluginSecret
      }
    })
    const customer = await emu.control('POST', '/customers', { email: 'kinds@example.test' })
    const library = await emu.control('POST', `/customers/${customer.body.customer.id}/library-token`)
    const session = await emu.control('POST', `/customers/${customer.body.customer.id}/session`, {})
    await emu.request('GET', '/api/library', { token: library.body.libraryToken })
    await emu.request('GET', `/api/library?token=${library.body.libraryToken}`)
    await emu.request('POST', '/api/library/claim', {
      token: session.body.token,
      body: { claim: 'clm_notarealclaimtoken00000' }
    })
    await emu.request('GET', '/.well-known/jwks.json')

    const kinds = (await listRequests(emu, '?limit=6')).body.requests.map(
      (row: { authKind: string; surface: string }) => [row.surface, row.authKind]
    )
    expect(kinds).toEqual([
      ['well-known', 'none'],
      ['library', 'user-jwt'],
      ['library', 'library-token'],
      ['library', 'library-token'],
      ['license-v1', 'product-credential-bearer'],
      ['developer-plugin-keys', 'developer-jwt']
    ])
    const developerRow = (await listRequests(emu, '?authKind=developer-jwt&limit=1')).body.requests[0]
    expect(developerRow.productId).toBe(credential.productId)
  })

  it('does not record the control plane, the OpenAPI document or the UI page', async () => {
    flushed(emu)
    const before = (await listRequests(emu, '?limit=1')).body.requests[0]?.id ?? 0
    await emu.control('GET', '/health')
    await emu.control('GET', '/products')
    await emu.control('GET', '/requests')
    await emu.request('GET', '/openapi.json')
    await emu.request('GET', '/')
    const after = (await listRequests(emu, '?limit=5')).body.requests
    expect(after.filter((row: { id: number }) => row.id > before)).toEqual([])
  })

  it('answers 404 for an unknown entry and 400 for bad filters', async () => {
    const missing = await emu.control('GET', '/requests/999999')
    expect(missing.status).toBe(404)
    expect(missing.body).toMatchObject({ ok: false, error: 'NOT_FOUND' })
    // Past what a JSON number holds exactly: refused, not rounded into another id (1e20).
    for (const path of ['/requests/99999999999999999999', '/drift/requests/99999999999999999999']) {
      const tooLong = await emu.control('GET', path)
      expect(tooLong.status, path).toBe(400)
      expect(tooLong.body.error, path).toBe('VALIDATION_ERROR')
      expect(tooLong.body.message, path).not.toContain('100000000000000000000')
    }
    for (const query of [
      '?before=99999999999999999999',
      '?surface=nope',
      '?status=abc',
      '?limit=0',
      '?limit=9999',
      '?before=x',
      '?unknown=1',
      '?authKind=magic'
    ]) {
      const refused = await emu.control('GET', `/requests${query}`)
      expect(refused.status, query).toBe(400)
      expect(refused.body.error).toBe('VALIDATION_ERROR')
    }
    expect((await emu.request('GET', '/_emulator/requests')).status).toBe(401)
  })
})

describe('filters and paging', () => {
  const emu = useEmulator()

  it('filters by surface, status, status class, method, product and path, and pages newest first', async () => {
    const a = await productWithCredential(emu, 'Product A')
    const b = await productWithCredential(emu, 'Product B')
    const verify = (credential: typeof a, secret: string) =>
      emu.request('POST', '/api/plugin-connections/verify', {
        body: {
          productId: credential.productId,
          appId: credential.appId,
          pluginKey: credential.pluginKey,
          pluginSecret: secret
        }
      })
    for (let i = 0; i < 3; i++) expect((await verify(a, a.pluginSecret)).status).toBe(200)
    expect((await verify(b, 'sk_wrongwrongwrongwrongwrong')).status).toBe(401)
    await emu.request('GET', '/.well-known/jwks.json')
    await emu.request('DELETE', '/api/license/v1/activate')

    const bySurface = (await listRequests(emu, '?surface=plugin-connections')).body.requests
    expect(bySurface).toHaveLength(4)
    expect(bySurface.every((row: { surface: string }) => row.surface === 'plugin-connections')).toBe(true)
    expect(
      (await listRequests(emu, `?productId=${a.productId}&surface=plugin-connections`)).body.requests
    ).toHaveLength(3)
    expect(
      (await listRequests(emu, `?productId=${b.productId}`)).body.requests.map((row: { status: number }) => row.status)
    ).toEqual([401, 201])
    expect((await listRequests(emu, '?status=401')).body.requests).toHaveLength(1)
    expect(
      (await listRequests(emu, '?status=4xx')).body.requests.map((row: { status: number }) => row.status).sort()
    ).toEqual([401, 405])
    expect((await listRequests(emu, '?method=delete')).body.requests).toHaveLength(1)
    expect((await listRequests(emu, '?path=JWKS')).body.requests).toHaveLength(1)
    expect((await listRequests(emu, '?path=%25')).body.requests).toHaveLength(0)

    const all = (await listRequests(emu, '?limit=500')).body.requests.map((row: { id: number }) => row.id)
    expect(all).toEqual([...all].sort((x: number, y: number) => y - x))
    const seen: number[] = []
    let query = '?limit=3'
    for (;;) {
      const page = (await listRequests(emu, query)).body
      expect(page.requests.length).toBeLessThanOrEqual(3)
      seen.push(...page.requests.map((row: { id: number }) => row.id))
      if (page.nextBefore === null) break
      expect(page.nextBefore).toBe(page.requests[page.requests.length - 1].id)
      query = `?limit=3&before=${page.nextBefore}`
    }
    expect(seen).toEqual(all)
  })

  it('empties the log on DELETE', async () => {
    await emu.request('GET', '/.well-known/jwks.json')
    const cleared = await emu.control('DELETE', '/requests')
    expect(cleared.status).toBe(200)
    expect(cleared.body.ok).toBe(true)
    expect(cleared.body.deleted).toBeGreaterThan(0)
    expect((await listRequests(emu)).body).toEqual({ ok: true, requests: [], nextBefore: null })
  })
})

describe('the ring', () => {
  it('keeps only the newest requests, up to the capacity', async () => {
    await withEmulator({ requestLogCapacity: 3 }, async (emu) => {
      // A batch at a time, so rows are written and then trimmed (a batch larger than the ring skips its oldest).
      for (let i = 0; i < 7; i++) {
        await emu.request('GET', `/.well-known/jwks.json?n=${i}`)
        flushed(emu)
      }
      const rows = (await listRequests(emu)).body.requests
      expect(rows.map((row: { path: string }) => row.path)).toEqual([
        '/.well-known/jwks.json?n=6',
        '/.well-known/jwks.json?n=5',
        '/.well-known/jwks.json?n=4'
      ])
      const dropped = await emu.control('GET', `/requests/${rows[2].id - 1}`)
      expect(dropped.status, dropped.text).toBe(404)
      await emu.request('GET', '/.well-known/jwks.json?n=7')
      flushed(emu)
      const count = withReadOnlyDatabase(
        requestLogPathFor(emu.databasePath),
        (db) => (db.prepare('SELECT COUNT(*) AS n FROM request_log').get() as { n: number }).n
      )
      expect(count).toBe(3)
    })
  })
})

describe('the live stream', () => {
  const emu = useEmulator()
  // Runs before useEmulator's afterAll closes it (see closeAfterAborts).
  afterAll(() => emu.app.server.closeAllConnections())

  it('sends an event for each new request', async () => {
    const stream = await openStream(emu)
    expect(stream.response.status).toBe(200)
    expect(stream.response.headers.get('content-type')).toContain('text/event-stream')
    await emu.request('GET', '/.well-known/jwks.json?live=1')
    flushed(emu)
    await stream.until((events) => events.some((event) => event.data.path === '/.well-known/jwks.json?live=1'))
    const event = stream.events.find((item) => item.data.path === '/.well-known/jwks.json?live=1') as StreamEvent
    expect(event.event).toBe('request')
    expect(event.data).toMatchObject({ surface: 'well-known', method: 'GET', status: 200, authKind: 'none' })
    expect(event.id).toBe(event.data.id)
    stream.close()
  })

  it('arrives without a flush, from the batch timer', async () => {
    const stream = await openStream(emu)
    await emu.request('GET', '/.well-known/jwks.json?timer=1')
    await stream.until((events) => events.some((event) => event.data.path === '/.well-known/jwks.json?timer=1'))
    stream.close()
  })

  it('accepts the admin token as ?token= (EventSource), and refuses a missing or wrong one', async () => {
    const stream = await openStream(emu, `?token=${emu.adminToken}&surface=library`, {})
    expect(stream.response.status).toBe(200)
    await emu.request('GET', '/.well-known/jwks.json?skipped=1')
    await emu.request('GET', '/api/library')
    flushed(emu)
    await stream.until((events) => events.length > 0)
    expect(stream.events[0]?.data).toMatchObject({ surface: 'library', status: 401, authKind: 'none' })
    stream.close()

    const none = await fetch(`${emu.baseUrl}/_emulator/requests/stream`)
    expect(none.status).toBe(401)
    expect(((await none.json()) as { error: string }).error).toBe('AUTH_REQUIRED')
    const wrong = await fetch(`${emu.baseUrl}/_emulator/requests/stream?token=not-the-token`)
    expect(wrong.status).toBe(401)
    expect(((await wrong.json()) as { error: string }).error).toBe('INVALID_TOKEN')
    const wrongHeader = await fetch(`${emu.baseUrl}/_emulator/requests/stream?token=${emu.adminToken}`, {
      headers: { 'x-emulator-token': 'nope' }
    })
    expect(wrongHeader.status).toBe(401)
    // The token in the URL is neither logged nor recorded.
    expect(emu.logOutput()).not.toContain(emu.adminToken)
  })

  it('replays what a reconnecting client missed (Last-Event-ID)', async () => {
    await emu.request('GET', '/.well-known/jwks.json?replay=1')
    const last = (await listRequests(emu, '?limit=1')).body.requests[0]
    await emu.request('GET', '/.well-known/jwks.json?replay=2')
    flushed(emu)
    const stream = await openStream(emu, '', { 'x-emulator-token': emu.adminToken, 'last-event-id': String(last.id) })
    await stream.until((events) => events.length > 0)
    expect(stream.events[0]?.data.path).toBe('/.well-known/jwks.json?replay=2')
    stream.close()
  })

  it('drops the subscription when the client disconnects', async () => {
    const subscribers = () => emu.app.core.requests.subscribers()
    // Streams closed by earlier tests go away as the server notices; start from none.
    await vi.waitFor(() => expect(subscribers()).toBe(0))
    const before = subscribers()
    const stream = await openStream(emu)
    await emu.request('GET', '/.well-known/jwks.json?bye=1')
    flushed(emu)
    await stream.until((events) => events.length > 0)
    expect(subscribers()).toBe(before + 1)
    stream.close()
    await vi.waitFor(() => expect(subscribers()).toBe(before))
  })

  it('does not keep the server from closing', async () => {
    const other = await startEmulator()
    const stream = await openStream(other)
    await other.request('GET', '/.well-known/jwks.json')
    flushed(other)
    await stream.until((events) => events.length > 0)
    await other.close()
    expect(other.app.core.requests.subscribers()).toBe(0)
  })
})

describe('redaction is a hard rule', () => {
  it('shows no secret or token of a scripted session in the list, the entries, the stream or the table', async () => {
    const emu = await startEmulator()
    try {
      const secrets = new Set<string>([emu.adminToken])
      const seen = (result: HttpResult) => {
        harvestSecrets(result.body, secrets)
        return result
      }
      const stream = await openStream(emu)

      // A developer creates, reveals and rotates credentials; the plugin verifies its connection.
      const credential = await productWithCredential(emu, 'Secretive Synth')
      const developer = credential.developer
      secrets.add(developer.token).add(credential.pluginKey).add(credential.pluginSecret)
      const base = `/api/developer/plugin-keys/products/${credential.productId}`
      seen(await emu.request('GET', base, { token: developer.token }))
      const revealed = seen(
        await emu.request('POST', `${base}/reveal-secret`, { token: developer.token, body: { reason: 'qa' } })
      )
      expect(revealed.status).toBe(200)
      const rotated = seen(await emu.request('POST', `${base}/rotate-secret`, { token: developer.token }))
      expect(rotated.status).toBe(201)
      const current = {
        ...credential,
        pluginKey: rotated.body.one_time_reveal.pluginKey,
        pluginSecret: rotated.body.one_time_reveal.pluginSecret
      }
      seen(
        await emu.request('POST', '/api/plugin-connections/verify', {
          body: {
            productId: current.productId,
            appId: current.appId,
            pluginKey: current.pluginKey,
            pluginSecret: current.pluginSecret
          }
        })
      )
      seen(
        await emu.request('POST', '/api/plugin-connections/verify', {
          body: {
            productId: current.productId,
            appId: current.appId,
            pluginKey: credential.pluginKey,
            pluginSecret: credential.pluginSecret
          }
        })
      )
      // A product credential sent to the management API, and the admin token sent to the service.
      seen(
        await emu.request('GET', base, {
          headers: { 'x-svc-plugin-key': current.pluginKey, 'x-svc-plugin-secret': current.pluginSecret }
        })
      )
      seen(await emu.request('GET', '/api/library', { headers: { 'x-emulator-token': emu.adminToken } }))
      seen(
        await emu.request('POST', '/api/nowhere', { body: { note: `admin ${emu.adminToken}`, [emu.adminToken]: 1 } })
      )

      // A customer buys; the plugin activates and validates (license tokens).
      const file = await emu.control('POST', `/products/${credential.productId}/files`, {
        version: '1.0.0',
        platform: 'macos',
        sizeBytes: 4096
      })
      expect(file.status).toBe(201)
      const customer = await emu.control('POST', '/customers', { email: 'secretive@example.test' })
      const customerId = customer.body.customer.id as string
      const bought = await emu.control('POST', '/purchases', { customerId, productId: credential.productId })
      const licenseKey = bought.body.license.key as string
      const plugin = pluginClient(emu, current)
      expect(seen(await plugin.activate(licenseKey, 'machine-a', { nonce: 'nonce-1' })).status).toBe(201)
      expect(seen(await plugin.validate(licenseKey, 'machine-a', 'nonce-2')).body.license_token).toBeTruthy()
      seen(
        await emu.request('POST', '/api/license/v1/validate', {
          body: { license_key: licenseKey },
          headers: {
            'x-svc-app-id': current.appId,
            'x-svc-api-key': current.pluginKey,
            'x-svc-plugin-secret': current.pluginSecret
          }
        })
      )

      // Library tokens: minted by the plugin and by the control plane, used as Bearer and query.
      const minted = seen(
        await emu.request('POST', '/api/license/v1/library-token', {
          body: { license_key: licenseKey },
          headers: plugin.headers
        })
      )
      expect(minted.status).toBe(200)
      const libraryToken = minted.body.library_token as string
      secrets.add(seen(await emu.control('POST', `/customers/${customerId}/library-token`)).body.libraryToken)
      const library = seen(await emu.request('GET', '/api/library', { token: libraryToken }))
      expect(library.status).toBe(200)
      seen(await emu.request('GET', `/api/library?token=${libraryToken}&instance_id=machine-a`))
      seen(await emu.request('GET', `/api/license/v1/webview-library?library_token=${libraryToken}`))
      const download = new URL(library.body.products[0].downloads[0].url)
      const downloaded = await fetch(emu.baseUrl + download.pathname + download.search)
      expect(downloaded.status).toBe(200)
      expect((await downloaded.arrayBuffer()).byteLength).toBe(4096)

      // A reseller claim by the signed-in customer (claim token, customer JWT).
      const reseller = await emu.control('POST', '/reseller-orders', { productId: credential.productId })
      const session = await emu.control('POST', `/customers/${customerId}/session`, {})
      secrets.add(reseller.body.claimToken).add(session.body.token)
      expect(
        seen(
          await emu.request('POST', `/api/library/claim?claim=${reseller.body.claimToken}`, {
            token: session.body.token
          })
        ).status
      ).toBe(200)
      seen(
        await emu.request('POST', '/api/library/claim', {
          token: session.body.token,
          body: { claim_token: reseller.body.claimToken }
        })
      )

      // What was collected is what must not show: sanity-check the harvest itself.
      expect(secrets.has(libraryToken)).toBe(true)
      expect(secrets.has(rotated.body.one_time_reveal.pluginSecret)).toBe(true)
      expect([...secrets].some((value) => value.startsWith('eyJ') && library.body.download_token === value)).toBe(true)
      expect(secrets.size).toBeGreaterThan(12)

      const everything = (await listRequests(emu, '?limit=500')).body.requests as { id: number }[]
      expect(everything.length).toBeGreaterThanOrEqual(18)
      const texts = [JSON.stringify(everything)]
      for (const row of everything) {
        const detail = await emu.control('GET', `/requests/${row.id}`)
        expect(detail.status).toBe(200)
        texts.push(detail.text)
      }
      const newest = everything[0]?.id as number
      await stream.until((events) => events.some((event) => event.id === newest))
      stream.close()
      texts.push(stream.raw())
      texts.push(
        JSON.stringify(
          withReadOnlyDatabase(requestLogPathFor(emu.databasePath), (db) =>
            db.prepare('SELECT * FROM request_log').all()
          )
        ),
        emu.logOutput()
      )
      // The entries are still useful: the download, its size, and previews are there.
      expect(texts.join('\n')).toContain('/api/downloads/')
      expect(texts.join('\n')).toContain(`${current.pluginKey.slice(0, 8)}...`)

      for (const secret of secrets) {
        texts.forEach((text, index) =>
          expect(
            text.includes(secret),
            `secret ${secret.slice(0, 6)}... leaked in text ${index} of ${texts.length}`
          ).toBe(false)
        )
      }
    } finally {
      await closeAfterAborts(emu)
    }
  })

  it('redacts the secret and key headers of a custom prefix by name, whatever their value', async () => {
    await withEmulator({ headerPrefix: 'acme' }, async (emu) => {
      await emu.request('POST', '/api/license/v1/validate', {
        body: { license_key: 'k' },
        headers: {
          'x-acme-app-id': 'app_visible',
          'x-acme-plugin-key': 'plain-looking-key-value',
          'x-acme-plugin-secret': 'plain-looking-secret-value',
          'x-acme-api-key': 'another-plain-value'
        }
      })
      const row = (await listRequests(emu)).body.requests[0]
      expect(row.authKind).toBe('product-credential')
      const detail = await emu.control('GET', `/requests/${row.id}`)
      for (const value of ['plain-looking-key-value', 'plain-looking-secret-value', 'another-plain-value'])
        expect(detail.text).not.toContain(value)
      expect(detail.body.entry.request.headers['x-acme-app-id']).toBe('app_visible')
    })
  })
})
