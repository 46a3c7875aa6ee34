import { createHash } from 'node:crypto'
import { Readable, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'

import { bodyTap } from '../../src/server/upstream/body-copy'
import type { BodyCopy } from '../../src/server/upstream/body-copy'

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** Streams `chunks` through a tap and answers what it kept and the bytes that came out. */
async function tapped(chunks: Buffer[], options: Parameters<typeof bodyTap>[1] = {}) {
  let copy: BodyCopy | null = null
  const out: Buffer[] = []
  await pipeline(
    Readable.from(chunks),
    bodyTap((kept) => (copy = kept), options),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk)
        done()
      }
    })
  )
  if (copy === null) throw new Error('the tap never ended')
  return { copy: copy as BodyCopy, out: Buffer.concat(out) }
}

describe('bodyTap: the digest of the whole body', () => {
  const body = Buffer.from(JSON.stringify({ ok: true, items: Array.from({ length: 200 }, (_, i) => `item-${i}`) }))

  it('a plain body that fits the copy: its size and SHA-256 (hashed from the copy when read)', async () => {
    const { copy, out } = await tapped([body.subarray(0, 100), body.subarray(100)])
    expect(out.equals(body)).toBe(true)
    expect(copy.truncated).toBe(false)
    expect(copy.whole).toEqual({ bytes: body.length, sha256: sha256(body) })
  })

  it('a plain body past the copy: hashed from its first byte as it streams', async () => {
    const { copy, out } = await tapped([body.subarray(0, 300), body.subarray(300, 900), body.subarray(900)], {
      limit: 512
    })
    expect(out.equals(body)).toBe(true)
    expect(copy.truncated).toBe(true)
    expect(copy.head.length).toBe(512)
    expect(copy.whole).toEqual({ bytes: body.length, sha256: sha256(body) })
  })

  it('a gzipped body that fits the copy: the digest of the body decompressed', async () => {
    const zipped = gzipSync(body)
    const { copy, out } = await tapped([zipped], { contentEncoding: 'gzip' })
    expect(out.equals(zipped)).toBe(true)
    expect(copy.decoded.body.equals(body)).toBe(true)
    expect(copy.whole).toEqual({ bytes: body.length, sha256: sha256(body) })
  })

  it('a gzipped body past the copy on the wire: decompressed from its first byte for the digest', async () => {
    const big = Buffer.concat(Array.from({ length: 50 }, (_, i) => Buffer.from(`${i}:${sha256(Buffer.from([i]))}\n`)))
    const zipped = gzipSync(big)
    const { copy } = await tapped([zipped.subarray(0, 64), zipped.subarray(64)], {
      contentEncoding: 'gzip',
      limit: 128
    })
    expect(copy.truncated).toBe(true)
    expect(copy.whole).toEqual({ bytes: big.length, sha256: sha256(big) })
  })
})
