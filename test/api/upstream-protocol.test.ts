import { connect } from 'node:net'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import type { ForwardedExchange } from '../../src/core/upstream/forwarded-exchange'
import { useEmulator } from '../support/emulator'
import { parseSocketAnswer } from '../support/raw-http'
import type { SocketAnswer } from '../support/raw-http'
import { startUpstreamDouble } from '../support/upstream-double'
import type { UpstreamDouble } from '../support/upstream-double'

/**
 * Writes `bytes` on a new connection and parses the answer once the server closes it (the
 * requests say `Connection: close`). The socket is not half-closed: Node's server would take a
 * FIN before the answer for a client gone, and a forwarded answer takes a moment.
 */
function sendKeepingOpen(baseUrl: string, bytes: string): Promise<SocketAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(baseUrl).port) })
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => resolve(parseSocketAnswer(Buffer.concat(chunks).toString('utf8'))))
    socket.write(bytes)
  })
}

// docs/upstream.md "How forwarding behaves": bytes and headers as HTTP proxies pass them on,
// checked over raw sockets against an upstream double that records what arrived.
describe('forwarding over HTTP/1.1', () => {
  let upstream: UpstreamDouble
  beforeAll(async () => {
    upstream = await startUpstreamDouble()
  })
  afterAll(async () => upstream.close())
  const proxy = useEmulator(() => ({ upstream: { url: upstream.baseUrl, firstByteTimeoutMs: 400 } }))
  beforeEach(() => {
    upstream.received.length = 0
    upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
  })
  const host = () => new URL(proxy.baseUrl).host

  it('passes method, path and the raw query unchanged, and sets Host to the upstream', async () => {
    const answer = await sendKeepingOpen(
      proxy.baseUrl,
      `GET /api/library/any{thing}|x?b=2&a=1&a=%2F&empty&x=a+b HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`
    )
    expect(answer.status).toBe(200)
    expect(answer.headers['x-emulator-source']).toBe('upstream')
    expect(upstream.received).toHaveLength(1)
    expect(upstream.received[0]?.method).toBe('GET')
    expect(upstream.received[0]?.url).toBe('/api/library/any{thing}|x?b=2&a=1&a=%2F&empty&x=a+b')
    expect(upstream.received[0]?.headers.host).toBe(new URL(upstream.baseUrl).host)
  })

  it('never lets a path climb out of the upstream base path with "..", plain, encoded or with backslashes', async () => {
    await proxy.control('PUT', '/upstream', { url: `${upstream.baseUrl}/platform` })
    const send = (path: string) =>
      sendKeepingOpen(proxy.baseUrl, `GET ${path} HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`)
    try {
      // The route patterns never take a ".." segment: the emulator answers the path itself.
      for (const path of ['/api/library/%2e%2e/%2E%2E/admin', '/api/library/../../admin']) {
        const answer = await send(path)
        expect(answer.status, path).toBe(404)
        expect(answer.headers['x-emulator-source'], path).toBe('emulator')
      }
      // A backslash passes the patterns, but the URL parser reads it as a slash: refused here.
      for (const path of ['/api/library/..\\..\\admin', '/api/library/..%5c..%5cadmin']) {
        const answer = await send(path)
        expect(answer.status, path).toBe(400)
        expect(answer.body, path).toMatchObject({
          ok: false,
          error: 'MALFORMED_REQUEST',
          message: expect.stringContaining('".." segment')
        })
      }
      expect(upstream.received).toHaveLength(0)
      // Dots inside a segment are a name like any other.
      const named = await send('/api/library/v1..2/...x')
      expect(named.status).toBe(200)
      expect(upstream.received[0]?.url).toBe('/platform/api/library/v1..2/...x')
    } finally {
      await proxy.control('PUT', '/upstream', { url: upstream.baseUrl })
    }
  })

  it('passes a chunked upload on byte for byte', async () => {
    const body = '{"license_key":"K-1","instance_id":"chunked"}'
    const chunked = `${(20).toString(16)}\r\n${body.slice(0, 20)}\r\n${(body.length - 20).toString(16)}\r\n${body.slice(20)}\r\n0\r\n\r\n`
    const answer = await sendKeepingOpen(
      proxy.baseUrl,
      `POST /api/license/v1/validate HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunked}`
    )
    expect(answer.status).toBe(200)
    expect(upstream.received[0]?.body.toString('utf8')).toBe(body)
  })

  it('answers Expect: 100-continue and forwards the body that follows', async () => {
    const body = '{"license_key":"K-2"}'
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(new URL(proxy.baseUrl).port) })
      let seen = ''
      let sentBody = false
      socket.on('data', (chunk: Buffer) => {
        seen += chunk.toString('utf8')
        if (!sentBody && seen.startsWith('HTTP/1.1 100')) {
          sentBody = true
          socket.write(body)
        }
      })
      socket.on('error', reject)
      socket.on('close', () => resolve(seen))
      socket.write(
        `POST /api/license/v1/validate HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`
      )
    })
    expect(raw).toMatch(/^HTTP\/1\.1 100 Continue/)
    expect(raw).toContain('HTTP/1.1 200')
    expect(upstream.received[0]?.body.toString('utf8')).toBe(body)
    expect(upstream.received[0]?.headers.expect).toBeUndefined()
  })

  it('drops hop-by-hop headers both ways and keeps end-to-end ones', async () => {
    upstream.answer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'keep-alive': 'timeout=99',
        'x-up-hop': 'gone',
        connection: 'x-up-hop',
        'x-end-to-end': 'kept'
      })
      response.end('{"ok":true}')
    })
    const answer = await sendKeepingOpen(
      proxy.baseUrl,
      `GET /api/library HTTP/1.1\r\nHost: ${host()}\r\nConnection: close, x-hop\r\nx-hop: 1\r\nKeep-Alive: timeout=5\r\n` +
        `Proxy-Authorization: Basic Zm9vOmJhcg==\r\nTE: trailers\r\nx-svc-app-id: app_kept\r\n\r\n`
    )
    expect(answer.status).toBe(200)
    const seen = upstream.received[0]?.headers ?? {}
    expect(seen['x-hop']).toBeUndefined()
    expect(seen['proxy-authorization']).toBeUndefined()
    expect(seen.te).toBeUndefined()
    expect(seen['x-svc-app-id']).toBe('app_kept')
    expect(String(seen.via)).toMatch(/^1\.1 plugin-license-emulator-/)
    expect(answer.headers['x-up-hop']).toBeUndefined()
    expect(answer.headers['keep-alive']).not.toBe('timeout=99')
    expect(answer.headers['x-end-to-end']).toBe('kept')
  })

  it('passes a redirect on instead of following it', async () => {
    upstream.answer((_request, response) => {
      response.writeHead(302, { location: '/api/library/elsewhere' }).end()
    })
    const answer = await sendKeepingOpen(
      proxy.baseUrl,
      `GET /api/library HTTP/1.1\r\nHost: ${host()}\r\nConnection: close\r\n\r\n`
    )
    expect(answer.status).toBe(302)
    expect(answer.headers.location).toBe('/api/library/elsewhere')
    expect(upstream.received).toHaveLength(1)
  })

  it('answers 502 in its own envelope when the upstream answers a status no reply can carry', async () => {
    upstream.answer((_request, response) => {
      response.writeHead(600, { 'content-type': 'application/json', 'x-up': 'kept?' }).end('{"ok":true}')
    })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(502)
    expect(response.headers.get('x-emulator-source')).toBe('emulator')
    expect(response.headers.get('x-up')).toBeNull()
    expect(await response.json()).toMatchObject({
      ok: false,
      error: 'UPSTREAM_UNREACHABLE',
      message: expect.stringContaining('status 600, which is not an HTTP status')
    })
  })

  it('releases the upstream connection when a client leaves, before the answer, mid-download or mid-upload, and keeps serving', async () => {
    // A long answer, written while the upstream's socket lets it: only the emulator letting go of
    // the connection ends it (the test's own timeout is the bound).
    let released: Promise<void> = Promise.resolve()
    upstream.answer((_request, response) => {
      released = new Promise<void>((resolve) => response.once('close', () => resolve()))
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/octet-stream' })
        const chunk = Buffer.alloc(64 * 1024, 7)
        const more = () => {
          while (!response.destroyed && response.write(chunk));
        }
        response.on('drain', more)
        more()
      }, 100)
    })
    const leave = (bytes: string, after: 'written' | 'first bytes') =>
      new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: Number(new URL(proxy.baseUrl).port) })
        socket.on('error', () => undefined)
        if (after === 'written') socket.write(bytes, () => setTimeout(() => socket.destroy(), 30))
        else {
          socket.write(bytes)
          socket.once('data', () => socket.destroy())
        }
        socket.once('close', () => resolve())
      })
    await leave(`GET /api/downloads/before HTTP/1.1\r\nHost: ${host()}\r\n\r\n`, 'written')
    await new Promise((resolve) => setTimeout(resolve, 150))
    await released
    await leave(`GET /api/downloads/during HTTP/1.1\r\nHost: ${host()}\r\n\r\n`, 'first bytes')
    await released
    await leave(
      `POST /api/license/v1/validate HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"lic`,
      'written'
    )
    upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}')
    })
    const after = await fetch(`${proxy.baseUrl}/api/library`)
    expect(after.status).toBe(200)
    expect(after.headers.get('x-emulator-source')).toBe('upstream')
  })

  it('passes a compressed answer through untouched', async () => {
    const gzipped = gzipSync(Buffer.from(JSON.stringify({ ok: true, note: 'compressed upstream answer' })))
    upstream.answer((_request, response) => {
      response
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': String(gzipped.length)
        })
        .end(gzipped)
    })
    const response = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(new URL(proxy.baseUrl).port) })
      const chunks: Buffer[] = []
      socket.on('data', (chunk: Buffer) => chunks.push(chunk))
      socket.on('error', reject)
      socket.on('close', () => resolve(Buffer.concat(chunks)))
      socket.write(`GET /api/library HTTP/1.1\r\nHost: ${host()}\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n`)
    })
    const split = response.indexOf('\r\n\r\n')
    const head = response.subarray(0, split).toString('latin1')
    expect(head).toMatch(/content-encoding: gzip/i)
    expect(response.subarray(split + 4).equals(gzipped)).toBe(true)
  })

  it('drops the client when the upstream drops mid-answer: never a short 200', async () => {
    upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '100000' })
      response.write(Buffer.alloc(1000, 7))
      setTimeout(() => response.socket?.destroy(), 50)
    })
    const response = await fetch(`${proxy.baseUrl}/api/downloads/file_x`)
    expect(response.status).toBe(200)
    await expect(response.arrayBuffer()).rejects.toThrow()
  })

  it('answers 508 UPSTREAM_LOOP for a request that already went through this emulator', async () => {
    await proxy.control('PUT', '/upstream', { url: proxy.baseUrl })
    try {
      const response = await fetch(`${proxy.baseUrl}/api/library`)
      expect(response.status).toBe(508)
      const body = await response.json()
      expect(body).toMatchObject({ ok: false, error: 'UPSTREAM_LOOP' })
    } finally {
      await proxy.control('PUT', '/upstream', { url: upstream.baseUrl })
    }
  })

  it('answers 502 UPSTREAM_UNREACHABLE with reason REFUSED when nothing listens', async () => {
    const closed = await startUpstreamDouble()
    const url = closed.baseUrl
    await closed.close()
    await proxy.control('PUT', '/upstream', { url })
    try {
      const response = await fetch(`${proxy.baseUrl}/api/license/v1/validate`, { method: 'POST', body: '{}' })
      expect(response.status).toBe(502)
      expect(response.headers.get('x-emulator-source')).toBe('emulator')
      expect(await response.json()).toMatchObject({ ok: false, error: 'UPSTREAM_UNREACHABLE', reason: 'REFUSED' })
    } finally {
      await proxy.control('PUT', '/upstream', { url: upstream.baseUrl })
    }
  })

  it('answers 504 UPSTREAM_TIMEOUT when the first byte does not come in time', async () => {
    upstream.answer(() => {
      // Never answers.
    })
    const response = await fetch(`${proxy.baseUrl}/api/library`)
    expect(response.status).toBe(504)
    expect(await response.json()).toMatchObject({ ok: false, error: 'UPSTREAM_TIMEOUT' })
  })

  it('never forwards the control plane or /openapi.json, whatever the routes say', async () => {
    await proxy.control('PUT', '/upstream', { url: upstream.baseUrl, routes: ['/**'] })
    try {
      expect((await proxy.control('GET', '/health')).status).toBe(200)
      expect((await fetch(`${proxy.baseUrl}/openapi.json`)).status).toBe(200)
      expect(upstream.received).toHaveLength(0)
    } finally {
      await proxy.control('PUT', '/upstream', { url: upstream.baseUrl })
    }
  })

  it('streams a 50 MB answer: the client has the first bytes before the upstream sends the last', async () => {
    const total = 50 * 1024 * 1024
    const piece = Buffer.alloc(1024 * 1024, 1)
    let clientHasBytes = false
    let flagBeforeLast: boolean | null = null
    upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(total) })
      response.write(piece)
      const waitForClient = async () => {
        for (let i = 0; i < 100 && !clientHasBytes; i++) await new Promise((resolve) => setTimeout(resolve, 50))
        flagBeforeLast = clientHasBytes
        for (let sent = piece.length; sent < total; sent += piece.length) {
          if (!response.write(piece)) await new Promise((resolve) => response.once('drain', resolve))
        }
        response.end()
      }
      void waitForClient()
    })
    const response = await fetch(`${proxy.baseUrl}/api/downloads/file_big`)
    expect(response.status).toBe(200)
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    let received = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      received += value.length
      clientHasBytes = true
    }
    expect(flagBeforeLast).toBe(true)
    expect(received).toBe(total)
  })

  it('hands each completed exchange to the observers with a decompressed copy; a throwing observer hurts nothing', async () => {
    const seen: ForwardedExchange[] = []
    proxy.app.upstream.addObserver({
      observe() {
        throw new Error('a broken observer')
      }
    })
    proxy.app.upstream.addObserver({ observe: (exchange) => seen.push(exchange) })
    const gzipped = gzipSync(Buffer.from('{"ok":true,"valid":true}'))
    upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipped)
    })
    const response = await fetch(`${proxy.baseUrl}/api/license/v1/validate?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"license_key":"K-9"}'
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true, valid: true })
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(seen).toHaveLength(1)
    const exchange = seen[0] as ForwardedExchange
    expect(exchange).toMatchObject({
      method: 'POST',
      path: '/api/license/v1/validate',
      rawQuery: 'x=1',
      upstreamUrl: upstream.baseUrl,
      status: 200,
      responseBodyTruncated: false
    })
    expect(exchange.responseBody?.toString('utf8')).toBe('{"ok":true,"valid":true}')
    expect(exchange.requestBody?.toString('utf8')).toBe('{"license_key":"K-9"}')
    expect(exchange.responseHeaders['content-encoding']).toBe('gzip')
  })

  it('fetches from the upstream for the emulator itself (app.upstream.fetch), over the same connection settings', async () => {
    upstream.answer((request, response) => {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ keys: [], path: request.url }))
    })
    const fetched = await proxy.app.upstream.fetch('/.well-known/jwks.json')
    expect(fetched.status).toBe(200)
    expect(JSON.parse(fetched.body.toString('utf8'))).toEqual({ keys: [], path: '/.well-known/jwks.json' })
  })
})
