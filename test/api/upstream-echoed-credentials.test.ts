import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'
import { startUpstreamDouble } from '../support/upstream-double'
import type { UpstreamDouble } from '../support/upstream-double'

// The real platform's credentials need not look like the emulator's (`sk_…`, `pk_…`, a JWT): what
// the plugin sent in its credential headers is a secret wherever the exchange carries it again,
// in the inspector (previewed, as the header is) and in a recording (the header's fingerprint).
const SECRET = 'hunter2hunter2hunter2'
const KEY = 'PLATFORMKEY-0042-abcdef'
const BEARER = 'opaque-session-7f3a9c1e2b'
const CREDENTIALS = [SECRET, KEY, BEARER]

describe('credentials an upstream echoes back, whatever their shape', () => {
  let upstream: UpstreamDouble
  beforeAll(async () => {
    upstream = await startUpstreamDouble()
  })
  afterAll(async () => upstream.close())
  const proxy = useEmulator(() => ({ upstream: { url: upstream.baseUrl } }))
  beforeEach(async () => {
    await proxy.control('DELETE', '/requests')
    upstream.answer((request, response) => {
      // Echoes every credential: in a JSON field, nested in free text, and in a response header.
      response.writeHead(200, { 'content-type': 'application/json', 'x-echo': `secret=${SECRET}` }).end(
        JSON.stringify({
          ok: true,
          note: request.headers['x-svc-plugin-secret'],
          details: { text: `key ${KEY} with ${SECRET}`, auth: BEARER },
          sent: request.body.toString('utf8'),
          // A short credential (the api key below) is not hidden: it would wipe ordinary text.
          status: 'ok'
        })
      )
    })
  })

  const send = () =>
    fetch(`${proxy.baseUrl}/api/license/v1/validate?echo=${SECRET}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-svc-app-id': 'app_platform_1',
        'x-svc-plugin-key': KEY,
        'x-svc-plugin-secret': SECRET,
        'x-svc-api-key': 'ok',
        authorization: `Bearer ${BEARER}`
      },
      body: JSON.stringify({ license_key: 'K-ECHO-1', comment: `my secret is ${SECRET}` })
    })

  async function lastEntry(): Promise<Record<string, any>> {
    for (let i = 0; i < 100; i++) {
      const list = await proxy.control('GET', '/requests?limit=1')
      const id = list.body.requests[0]?.id as number | undefined
      if (id !== undefined) return (await proxy.control('GET', `/requests/${id}`)).body.entry
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error('no inspector entry')
  }

  it('previews them in the inspector entry, its list row and the HAR export, as the header is previewed', async () => {
    const response = await send()
    expect(response.status).toBe(200)
    // The plugin gets the upstream's answer untouched.
    expect(((await response.json()) as { note: string }).note).toBe(SECRET)

    const entry = await lastEntry()
    const shownSecret = entry.request.headers['x-svc-plugin-secret'] as string
    expect(shownSecret).toContain('...')
    expect(entry.response.body.note).toBe(shownSecret)
    expect(entry.response.body.details.text).toBe(
      `key ${entry.request.headers['x-svc-plugin-key']} with ${shownSecret}`
    )
    expect(`Bearer ${entry.response.body.details.auth}`).toBe(entry.request.headers.authorization)
    expect(entry.response.headers['x-echo']).toBe(`secret=${shownSecret}`)
    expect(entry.request.body.comment).toBe(`my secret is ${shownSecret}`)
    expect(entry.path).toBe(`/api/license/v1/validate?echo=${encodeURIComponent(shownSecret)}`)
    expect(entry.response.body.status).toBe('ok')

    const list = await proxy.control('GET', '/requests')
    const har = await proxy.control('GET', '/requests/har')
    for (const text of [JSON.stringify(entry), list.text, har.text]) {
      for (const credential of CREDENTIALS) expect(text).not.toContain(credential)
    }
    // What the inspector shows is what it searches: the credential finds nothing.
    expect((await proxy.control('GET', `/requests?q=${SECRET}`)).body.requests).toHaveLength(0)
  })

  it('fingerprints them in a recording as the credential header itself is fingerprinted', async () => {
    const started = await proxy.control('POST', '/recordings', { name: 'echo' })
    expect(started.status).toBe(201)
    const id = started.body.recording.id as string
    try {
      expect((await send()).status).toBe(200)
      for (let i = 0; i < 100; i++) {
        const list = await proxy.control('GET', '/recordings')
        if (list.body.recordings[0].exchanges + list.body.recordings[0].refused >= 1) break
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    } finally {
      await proxy.control('POST', `/recordings/${id}/stop`)
    }
    const answer = await proxy.control('GET', `/recordings/${id}`)
    expect(answer.status).toBe(200)
    const document = answer.body.recording
    expect(document.refused).toBe(0)
    expect(document.exchanges).toHaveLength(1)
    const [exchange] = document.exchanges
    const secretPrint = exchange.request.headers['x-svc-plugin-secret'] as string
    const keyPrint = exchange.request.headers['x-svc-plugin-key'] as string
    expect(secretPrint).toMatch(/^fp\.pluginsecret\.[0-9a-f]{64}$/)
    expect(keyPrint).toMatch(/^fp\.pluginkey\.[0-9a-f]{64}$/)
    const body = exchange.response.body.json
    expect(body.note).toBe(secretPrint)
    expect(body.details.text).toBe(`key ${keyPrint} with ${secretPrint}`)
    expect(`Bearer ${body.details.auth}`).toBe(exchange.request.headers.authorization)
    expect(exchange.response.headers['x-echo']).toBe(`secret=${secretPrint}`)
    expect(exchange.request.body.json.comment).toBe(`my secret is ${secretPrint}`)
    expect(exchange.request.query).toBe(`echo=${secretPrint}`)
    expect(body.status).toBe('ok')
    for (const credential of CREDENTIALS) expect(answer.text).not.toContain(credential)
  })
})
