import { describe, expect, it } from 'vitest'

import { newPluginSecret } from '../../src/core/credentials/credential-material'
import { heldCapture, MAX_BODY_CHARS, prepareEntry } from '../../src/core/inspector/redact-exchange'
import type { CapturedPayload, RequestCapture } from '../../src/core/inspector/types'
import { requestCapture } from '../support/request-capture'

// What the request log posts to its worker is the capture cut to what its redaction reads
// (heldCapture): the entry made of it must be the entry the whole capture makes.

const capture = (response: CapturedPayload, contentType: string | undefined, length?: number): RequestCapture =>
  requestCapture({
    url: '/api/library',
    durationMs: 3,
    responseHeaders: {
      ...(contentType ? { 'content-type': contentType } : {}),
      ...(length === undefined ? {} : { 'content-length': String(length) })
    },
    response,
    surface: 'library',
    authKind: 'library-token'
  })

/** A JSON answer of `items` rows, each with a secret and characters of two to four bytes in UTF-8. */
const bigJson = (items: number) =>
  JSON.stringify({
    ok: true,
    items: Array.from({ length: items }, (_, i) => ({
      id: `item_${i}`,
      name: `Ärger ✓ 𝄞 ${i}`,
      secret: newPluginSecret()
    }))
  })

const chunksOf = (text: string, size: number): Uint8Array[] => {
  const bytes = Buffer.from(text)
  const out: Uint8Array[] = []
  for (let at = 0; at < bytes.length; at += size) out.push(new Uint8Array(bytes.subarray(at, at + size)))
  return out
}

const sameEntry = (whole: RequestCapture, copy: RequestCapture) => {
  const held = heldCapture(copy)
  expect(prepareEntry(held)).toEqual(prepareEntry(whole))
  return held
}

describe('a capture cut to what its redaction reads', () => {
  it('makes the same entry of a large JSON answer, as text and in chunks, and holds a small part of it', () => {
    const text = bigJson(5000)
    expect(text.length).toBeGreaterThan(20 * MAX_BODY_CHARS)
    const bytes = Buffer.byteLength(text)
    const asText = sameEntry(
      capture({ kind: 'text', text }, 'application/json; charset=utf-8', bytes),
      capture({ kind: 'text', text }, 'application/json; charset=utf-8', bytes)
    )
    expect(asText.response.kind === 'text' && asText.response.text.length).toBeLessThan(2 * MAX_BODY_CHARS)
    const chunks = chunksOf(text, 64 * 1024)
    const inChunks = sameEntry(
      capture({ kind: 'chunks', chunks }, 'application/json'),
      capture({ kind: 'chunks', chunks }, 'application/json')
    )
    const held = inChunks.response.kind === 'chunks' ? inChunks.response.chunks : []
    expect(held.reduce((sum, chunk) => sum + chunk.byteLength, 0)).toBeLessThan(bytes / 4)
  })

  it('makes the same entry of a long text answer, a binary one and a JSON answer just over 16 KiB', () => {
    const text = `${'line of text with a key '.repeat(10_000)}${newPluginSecret()}`
    sameEntry(capture({ kind: 'text', text }, 'text/plain'), capture({ kind: 'text', text }, 'text/plain'))
    const binary = new Uint8Array(300_000).fill(7)
    const asBinary = sameEntry(
      capture({ kind: 'bytes', bytes: binary }, 'application/octet-stream'),
      capture({ kind: 'bytes', bytes: binary }, 'application/octet-stream')
    )
    expect(asBinary.response.kind === 'bytes' && asBinary.response.bytes.byteLength).toBe(0)
    const justOver = bigJson(1).padEnd(MAX_BODY_CHARS + 500, ' ')
    sameEntry(
      capture({ kind: 'text', text: justOver }, undefined),
      capture({ kind: 'text', text: justOver }, undefined)
    )
  })

  it('copies bytes out of a larger buffer they share, so a clone does not copy that buffer', () => {
    const pool = Buffer.alloc(8192, 'a')
    const view = pool.subarray(100, 200)
    const held = heldCapture(capture({ kind: 'bytes', bytes: view }, 'text/plain'))
    const bytes = held.response.kind === 'bytes' ? held.response.bytes : new Uint8Array()
    expect(bytes.byteLength).toBe(100)
    expect(bytes.buffer.byteLength).toBe(100)
  })
})
