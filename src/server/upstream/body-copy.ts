import { Transform } from 'node:stream'
import type { TransformCallback } from 'node:stream'
import { brotliDecompressSync, constants, gunzipSync, inflateSync } from 'node:zlib'

/** The most of a body kept for the inspector and the observers (drift, recordings). */
export const BODY_COPY_LIMIT = 1024 * 1024

/** What a tap kept of the bytes that went through it. */
export interface BodyCopy {
  /** The first bytes, up to the limit, as they crossed the wire. */
  readonly head: Buffer
  /** Every byte that went through. */
  readonly totalBytes: number
  readonly truncated: boolean
}

/**
 * A pass-through that keeps a copy of the first `limit` bytes as they go by: the bytes go on
 * untouched and unbuffered (a 50 MB download streams with flat memory), the copy stays small.
 * `onEnd` runs once, when the last byte has gone through (before the reading side ends).
 */
export function bodyTap(onEnd: (copy: BodyCopy) => void, limit = BODY_COPY_LIMIT): Transform {
  const chunks: Buffer[] = []
  let kept = 0
  let total = 0
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      total += chunk.length
      if (kept < limit) {
        const part = chunk.subarray(0, limit - kept)
        chunks.push(Buffer.from(part))
        kept += part.length
      }
      callback(null, chunk)
    },
    flush(callback: TransformCallback) {
      try {
        onEnd({ head: Buffer.concat(chunks), totalBytes: total, truncated: total > kept })
      } catch {
        // Whatever watches the copy must not break the body the client is getting.
      }
      callback()
    }
  })
}

/**
 * The copy decompressed per Content-Encoding (gzip, deflate, br), capped at `limit`. A cut copy
 * is decompressed as far as it goes; an encoding this cannot read leaves the bytes as they were.
 */
export function decodedCopy(
  copy: BodyCopy,
  contentEncoding: string | undefined,
  limit = BODY_COPY_LIMIT
): { body: Buffer; truncated: boolean } {
  const encoding = (contentEncoding ?? '').trim().toLowerCase()
  if (encoding === '' || encoding === 'identity') return { body: copy.head, truncated: copy.truncated }
  const options = { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH }
  try {
    const body =
      encoding === 'gzip' || encoding === 'x-gzip'
        ? gunzipSync(copy.head, options)
        : encoding === 'deflate'
          ? inflateSync(copy.head, options)
          : encoding === 'br'
            ? brotliDecompressSync(copy.head, {
                maxOutputLength: limit,
                finishFlush: constants.BROTLI_OPERATION_FLUSH
              })
            : null
    if (body === null) return { body: copy.head, truncated: copy.truncated }
    return { body, truncated: copy.truncated || body.length >= limit }
  } catch {
    // Over the cap, or not what it claimed to be: the copy says it is cut.
    return { body: Buffer.alloc(0), truncated: true }
  }
}
