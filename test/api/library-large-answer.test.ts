import { beforeAll, describe, expect, it } from 'vitest'

// @ts-expect-error -- bench/ is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedFixtures from '../../bench/lib/fixtures.mjs'
import { MAX_BODY_CHARS } from '../../src/core/inspector/redact-exchange'
import { useEmulator } from '../support/emulator'
import { rawRequest } from '../support/raw-http'

// A library of megabytes (the bench's 1,000-item customer) is written in chunks of about 64 KiB
// (src/server/http/json-chunks.ts), not as one string. What a client and the inspector see must
// not change: one JSON text with its Content-Length, recorded cut to 16 KiB with its full length.

const { buildFixtures } = untypedFixtures as {
  buildFixtures: () => { document: unknown; libraryCustomerIds: Record<number, string> }
}

const emu = useEmulator()
let token: string

const get = (path: string, method = 'GET') =>
  rawRequest(emu.baseUrl, { method, path, headers: { authorization: `Bearer ${token}` } })

beforeAll(async () => {
  const fixtures = buildFixtures()
  expect((await emu.control('PUT', '/state', fixtures.document)).status).toBe(200)
  const issued = await emu.control('POST', `/customers/${fixtures.libraryCustomerIds[1000]}/library-token`)
  expect(issued.status).toBe(200)
  token = issued.body.libraryToken as string
})

describe('GET /api/library for 1,000 items (about 1.9 MB)', () => {
  it('answers one JSON text with its exact Content-Length, not chunked transfer coding', async () => {
    const answer = await get('/api/library')
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8')
    expect(answer.headers['transfer-encoding']).toBeUndefined()
    const bytes = Buffer.byteLength(answer.text)
    expect(answer.headers['content-length']).toBe(String(bytes))
    expect(bytes).toBeGreaterThan(1_000_000)
    const text = answer.text
    const body = JSON.parse(text) as Record<string, unknown[]> & { support: { product_contacts: unknown[] } }
    expect(body.ok).toBe(true)
    for (const group of ['products', 'licenses', 'orders']) expect(body[group]).toHaveLength(1000)
    expect(body.support.product_contacts).toHaveLength(1000)
    // No whitespace or doubled separators where two chunks meet: JSON.stringify's own text.
    expect(text === JSON.stringify(body)).toBe(true)
  })

  it('answers HEAD with the same headers and no body', async () => {
    const full = await get('/api/library')
    const head = await get('/api/library', 'HEAD')
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    expect(head.headers['content-type']).toBe(full.headers['content-type'])
    expect(head.headers['content-length']).toBe(full.headers['content-length'])
  })

  it('is recorded by the inspector cut to 16 KiB, with its full length, and the token hidden', async () => {
    const answer = await get('/api/library')
    const summary = (await emu.control('GET', '/requests?limit=1')).body.requests[0]
    expect(summary).toMatchObject({ method: 'GET', path: '/api/library', status: 200 })
    const entry = (await emu.control('GET', `/requests/${summary.id}`)).body.entry
    expect(entry.response.bodyInfo).toMatchObject({
      kind: 'json',
      truncated: true,
      bytes: Buffer.byteLength(answer.text)
    })
    const kept = entry.response.body as string
    // Redaction shortens the download links' tokens, so less than 16 KiB of text is left.
    expect(kept.length).toBeGreaterThan(MAX_BODY_CHARS / 2)
    expect(kept.length).toBeLessThanOrEqual(MAX_BODY_CHARS)
    expect(answer.text.startsWith(kept.slice(0, 40))).toBe(true)
    expect(JSON.stringify(entry)).not.toContain(token)
  })

  it('arrives whole under a trickle fault, with the same length, in several pieces', async () => {
    const plain = await get('/api/library')
    const rules = await emu.control('PUT', '/faults', { rules: [{ route: '/api/library', kind: 'trickle', ms: 40 }] })
    expect(rules.status, rules.text).toBe(200)
    try {
      const slow = await get('/api/library')
      expect(slow.status).toBe(200)
      expect(slow.headers['content-length']).toBe(plain.headers['content-length'])
      expect(slow.pieces).toBeGreaterThan(1)
      // The download token in the links is minted per answer; everything else is the same.
      expect(Buffer.byteLength(slow.text)).toBe(Buffer.byteLength(plain.text))
      expect(slow.body).toMatchObject({ ok: true })
    } finally {
      await emu.control('PUT', '/faults', { rules: [] })
    }
  })
})
