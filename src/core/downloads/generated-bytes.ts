import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'

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
