import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:https'
import type { Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { withEmulator } from '../support/emulator'
import { makeTempDir } from '../support/temp-dir'

// docs/upstream.md "Failures": an https upstream's certificate is verified with the system's CAs
// plus --upstream-ca. A certificate made here for 127.0.0.1 is refused until it is trusted.
describe('forwarding to an https upstream', () => {
  const dir = makeTempDir('upstream-tls')
  let server: Server
  let url: string
  let certificate: string

  beforeAll(async () => {
    const keyPath = join(dir.path, 'key.pem')
    const certPath = join(dir.path, 'cert.pem')
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyPath,
        '-out',
        certPath,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1'
      ],
      { stdio: 'ignore' }
    )
    certificate = readFileSync(certPath, 'utf8')
    server = createServer({ key: readFileSync(keyPath), cert: certificate }, (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"over":"tls"}')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    dir.remove()
  })

  it('refuses a certificate no CA vouches for: 502 UPSTREAM_UNREACHABLE, reason TLS', async () => {
    await withEmulator({ upstream: { url } }, async (proxy) => {
      const response = await fetch(`${proxy.baseUrl}/api/library`)
      expect(response.status).toBe(502)
      const body = (await response.json()) as { message: string }
      expect(body).toMatchObject({ ok: false, error: 'UPSTREAM_UNREACHABLE', reason: 'TLS' })
      expect(body.message).toMatch(/certificate was not accepted/)
    })
  })

  it('an http:// URL on its port: the connection closed, with a hint to use https://', async () => {
    await withEmulator({ upstream: { url: url.replace(/^https:/, 'http:') } }, async (proxy) => {
      const response = await fetch(`${proxy.baseUrl}/api/library`)
      expect(response.status).toBe(502)
      const body = (await response.json()) as { message: string }
      expect(body).toMatchObject({ ok: false, error: 'UPSTREAM_UNREACHABLE', reason: 'RESET' })
      expect(body.message).toContain('If it serves HTTPS on that port, use an https:// URL.')
    })
  })

  it('accepts it once given as --upstream-ca', async () => {
    await withEmulator({ upstream: { url, ca: certificate } }, async (proxy) => {
      const response = await fetch(`${proxy.baseUrl}/api/library`)
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ ok: true, over: 'tls' })
      expect(response.headers.get('x-emulator-source')).toBe('upstream')
    })
  })
})
