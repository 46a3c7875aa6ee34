import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { upstreamFailureOf } from '../../src/server/upstream/upstream-failure'
import { withEmulator } from '../support/emulator'
import { startUpstreamDouble } from '../support/upstream-double'
import type { UpstreamDouble } from '../support/upstream-double'

// docs/upstream.md "Failures": an https:// upstream URL on a port that serves plain HTTP is
// reason TLS, and the message says what is wrong (no TLS there), not that a certificate is bad.
describe('an https upstream URL on a plain HTTP port', () => {
  let plain: UpstreamDouble
  beforeAll(async () => {
    plain = await startUpstreamDouble()
  })
  afterAll(async () => plain.close())

  it('answers 502 UPSTREAM_UNREACHABLE, reason TLS, saying the port does not speak TLS', async () => {
    const url = plain.baseUrl.replace(/^http:/, 'https:')
    await withEmulator({ upstream: { url } }, async (proxy) => {
      const response = await fetch(`${proxy.baseUrl}/api/library`)
      expect(response.status).toBe(502)
      expect(response.headers.get('x-emulator-source')).toBe('emulator')
      const body = (await response.json()) as { message: string }
      expect(body).toMatchObject({ ok: false, error: 'UPSTREAM_UNREACHABLE', reason: 'TLS' })
      expect(body.message).toContain('does not speak TLS')
      expect(body.message).toContain('http://')
      expect(body.message).not.toMatch(/certificate/i)
      expect(plain.received).toHaveLength(0)
    })
  })

  it("reads OpenSSL's reason when Node names the failure only EPROTO", () => {
    const error = Object.assign(new Error('Bad gateway'), {
      cause: Object.assign(new Error('write EPROTO 0A00010B:SSL routines:ssl3_get_record:wrong version number'), {
        code: 'EPROTO'
      })
    })
    const failure = upstreamFailureOf(error, 'https://127.0.0.1:8080')
    expect(failure).toMatchObject({ code: 'UPSTREAM_UNREACHABLE', reason: 'TLS' })
    expect(failure.message).toContain('does not speak TLS')
  })
})
