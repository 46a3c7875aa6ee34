import { createHash, randomBytes } from 'node:crypto'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { deflateSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'
import { startUpstreamDouble } from '../support/upstream-double'
import type { UpstreamDouble } from '../support/upstream-double'

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

// The collector, to measure what a stream holds rather than what it allocated and dropped. Taken
// from a context of its own, and the flag set back: no other test sees a `gc` global.
setFlagsFromString('--expose-gc')
const collectGarbage = runInNewContext('gc') as () => void
setFlagsFromString('--no-expose-gc')

/** A JSON document of about `bytes` bytes (a library of many products). */
function bigJson(bytes: number): Buffer {
  const item = { id: 'prod_0000', name: 'A Synth', description: 'd'.repeat(200) }
  const count = Math.ceil(bytes / JSON.stringify(item).length)
  return Buffer.from(
    JSON.stringify({
      ok: true,
      products: Array.from({ length: count }, (_, index) => ({ ...item, id: `prod_${index}` }))
    })
  )
}

// docs/upstream.md "Record, replay, reproduce": a body the recording does not keep whole is kept as
// its real size and SHA-256, counted and hashed as it streams through, however large it is (the
// inspector's copy stops at 1 MiB; the recording's digest must not).
describe('a recording keeps the real size and SHA-256 of a large forwarded body', () => {
  let upstream: UpstreamDouble
  beforeAll(async () => {
    upstream = await startUpstreamDouble()
  })
  afterAll(async () => upstream.close())
  const proxy = useEmulator(() => ({ upstream: { url: upstream.baseUrl } }))
  let recordingId = ''
  beforeEach(async () => {
    const started = await proxy.control('POST', '/recordings', { name: 'large bodies' })
    recordingId = started.body.recording.id as string
  })

  /** Waits for the one exchange, stops the recording and answers it. */
  async function recordedExchange(): Promise<Record<string, any>> {
    for (let i = 0; i < 200; i++) {
      const list = await proxy.control('GET', '/recordings')
      const running = list.body.recordings.find((item: { id: string }) => item.id === recordingId)
      if (running.exchanges + running.refused >= 1) break
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    await proxy.control('POST', `/recordings/${recordingId}/stop`)
    const document = (await proxy.control('GET', `/recordings/${recordingId}`)).body.recording
    expect(document.refused).toBe(0)
    expect(document.exchanges).toHaveLength(1)
    return document.exchanges[0]
  }

  it('a 3 MB JSON answer: its size and digest, not those of the first MiB', async () => {
    const body = bigJson(3_100_000)
    expect(body.length).toBeGreaterThan(3_000_000)
    upstream.answer((_request, response) => {
      // Chunked, as a platform streams a generated answer: no Content-Length tells the size.
      response.writeHead(200, { 'content-type': 'application/json' })
      for (let at = 0; at < body.length; at += 64 * 1024) response.write(body.subarray(at, at + 64 * 1024))
      response.end()
    })
    const answer = await fetch(`${proxy.baseUrl}/api/library`)
    expect(Buffer.from(await answer.arrayBuffer()).equals(body)).toBe(true)
    const exchange = await recordedExchange()
    expect(exchange.response.body).toEqual({ kind: 'digest', bytes: body.length, sha256: sha256(body) })
  })

  it('a gzipped answer of 3 MB: the size and digest of the body as kept (decompressed), chunked on the wire', async () => {
    const body = bigJson(3_100_000)
    const gzipped = gzipSync(body)
    expect(gzipped.length).toBeLessThan(1024 * 1024)
    upstream.answer((_request, response) => {
      // No Content-Length: the size cannot be read from a header.
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      for (let at = 0; at < gzipped.length; at += 16 * 1024) response.write(gzipped.subarray(at, at + 16 * 1024))
      response.end()
    })
    const answer = await fetch(`${proxy.baseUrl}/api/library`)
    // The client gets the bytes as the upstream sent them (fetch decompresses them).
    expect(Buffer.from(await answer.arrayBuffer()).equals(body)).toBe(true)
    const exchange = await recordedExchange()
    expect(exchange.response.headers['content-encoding']).toBeUndefined()
    expect(exchange.response.body).toEqual({ kind: 'digest', bytes: body.length, sha256: sha256(body) })
  })

  it('a deflated answer past the copy on the wire too: decompressed as it streams, for the digest', async () => {
    // Random text barely compresses: the wire carries more than the inspector's 1 MiB copy.
    const body = Buffer.from(JSON.stringify({ ok: true, blob: randomBytes(2_400_000).toString('base64') }))
    const deflated = deflateSync(body)
    expect(deflated.length).toBeGreaterThan(2 * 1024 * 1024)
    upstream.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' })
      for (let at = 0; at < deflated.length; at += 64 * 1024) response.write(deflated.subarray(at, at + 64 * 1024))
      response.end()
    })
    const answer = await fetch(`${proxy.baseUrl}/api/library`)
    expect(Buffer.from(await answer.arrayBuffer()).equals(body)).toBe(true)
    const exchange = await recordedExchange()
    expect(exchange.response.body).toEqual({ kind: 'digest', bytes: body.length, sha256: sha256(body) })
  })

  it('a 2 MB upload: the request body by its whole size and digest', async () => {
    const body = bigJson(2_000_000)
    const answer = await fetch(`${proxy.baseUrl}/api/license/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body
    })
    expect(answer.status).toBe(200)
    expect(upstream.received.at(-1)?.body.length).toBe(body.length)
    const exchange = await recordedExchange()
    expect(exchange.request.body).toEqual({ kind: 'digest', bytes: body.length, sha256: sha256(body) })
  })

  it('a 50 MB download: counted and hashed as it passes, with flat memory', async () => {
    const piece = Buffer.alloc(1024 * 1024)
    const pieces = 50
    const hash = createHash('sha256')
    for (let index = 0; index < pieces; index++) hash.update(piece.fill(index))
    const expected = hash.digest('hex')
    upstream.answer((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(piece.length * pieces)
      })
      const send = async () => {
        for (let index = 0; index < pieces; index++) {
          if (!response.write(Buffer.alloc(piece.length, index)))
            await new Promise((resolve) => response.once('drain', resolve))
        }
        response.end()
      }
      void send()
    })
    // What is still held, garbage collected first: allocation alone says nothing about buffering.
    // Twice: V8 frees dropped buffers' memory on a thread of its own after a collection, and the
    // next collection waits for that; once, a loaded machine counted the chunks already passed
    // (Node 24, three busy cores: 41-54 MB held at 10 MB received; twice, 3 MB every time).
    const held = () => {
      collectGarbage()
      collectGarbage()
      const usage = process.memoryUsage()
      return usage.heapUsed + usage.arrayBuffers
    }
    const before = held()
    let peak = 0
    let nextCheck = 10 * piece.length
    const answer = await fetch(`${proxy.baseUrl}/api/downloads/file_big`)
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader()
    let received = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      received += value.length
      if (received >= nextCheck) {
        peak = Math.max(peak, held() - before)
        nextCheck += 10 * piece.length
      }
    }
    expect(received).toBe(piece.length * pieces)
    // Buffering the body anywhere would hold tens of MB by the last check; streaming holds a few chunks.
    expect(peak).toBeLessThan(24 * piece.length)
    const exchange = await recordedExchange()
    expect(exchange.response.body).toEqual({ kind: 'digest', bytes: piece.length * pieces, sha256: expected })
  })
})
