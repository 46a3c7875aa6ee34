import { Readable } from 'node:stream'
import { createHash } from 'node:crypto'

const BLOCK = 64 * 1024

/**
 * The bytes of a generated download: a fixed 64 KiB block derived from the file id, repeated.
 * Deterministic, so a range request and a full download agree byte for byte.
 */
export function generatedBlock(fileId: string): Buffer {
  const block = Buffer.alloc(BLOCK)
  let seed = createHash('sha256').update(fileId).digest()
  for (let offset = 0; offset < BLOCK; offset += seed.length) {
    seed.copy(block, offset)
    seed = createHash('sha256').update(seed).digest()
  }
  return block
}

/** A stream of bytes [start, end] (inclusive) of the generated file. */
export function generatedByteStream(fileId: string, start: number, end: number): Readable {
  const block = generatedBlock(fileId)
  let position = start
  return new Readable({
    read() {
      if (position > end) {
        this.push(null)
        return
      }
      const offset = position % BLOCK
      const length = Math.min(BLOCK - offset, end - position + 1)
      this.push(block.subarray(offset, offset + length))
      position += length
    }
  })
}

export type ByteRange = { start: number; end: number }

/**
 * Parses a single `Range: bytes=...` header against a size. Returns null for no range (whole
 * file), 'unsatisfiable' when it cannot be served; multiple ranges are served whole.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match) return null
  const [, from = '', to = ''] = match
  if (from === '' && to === '') return null
  if (from === '') {
    const suffix = Number(to)
    if (suffix === 0) return 'unsatisfiable'
    // An empty file has no byte to name in a Content-Range: the suffix is served as the whole (empty) file.
    if (size === 0) return null
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(from)
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1)
  if (start >= size || start > end) return 'unsatisfiable'
  return { start, end }
}
