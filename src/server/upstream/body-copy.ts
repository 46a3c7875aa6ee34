import { createHash } from 'node:crypto'
import { Transform } from 'node:stream'
import type { TransformCallback } from 'node:stream'
import {
  brotliDecompressSync,
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  gunzipSync,
  inflateSync
} from 'node:zlib'

import type { StreamedBodyDigest } from '../../core/upstream/forwarded-exchange'

/** The most of a body kept for the inspector and the observers (drift, recordings). */
export const BODY_COPY_LIMIT = 1024 * 1024

/**
 * A decompressed body is hashed up to this size: past it (a compression bomb) its digest is given
 * up rather than the event loop spending seconds on it.
 */
export const MAX_DIGEST_DECODED_BYTES = 1024 * 1024 * 1024

/** What a tap kept of the bytes that went through it. */
export interface BodyCopy {
  /** The first bytes, up to the limit, as they crossed the wire. */
  readonly head: Buffer
  /** Every byte that went through. */
  readonly totalBytes: number
  readonly truncated: boolean
  /** The copy with the tap's Content-Encoding undone (decodedCopy), capped at the limit. */
  readonly decoded: { readonly body: Buffer; readonly truncated: boolean }
  /**
   * The size and SHA-256 of the whole body with the tap's Content-Encoding undone, counted over
   * every byte; null when it could not be undone (an encoding this cannot read, a corrupt body).
   */
  readonly whole: StreamedBodyDigest | null
}

export interface BodyTapOptions {
  /** Bytes of the copy (default BODY_COPY_LIMIT). */
  limit?: number | undefined
  /** The body's Content-Encoding: the decoded copy and the digest are of the body decompressed, as a recording keeps it. */
  contentEncoding?: string | undefined
}

/** The Content-Encodings undone for the decoded copy and the digest. */
const DECODABLE: ReadonlySet<string> = new Set(['gzip', 'x-gzip', 'deflate', 'br'])

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/**
 * A pass-through that keeps a copy of the first `limit` bytes as they go by, and counts and hashes
 * every byte: the bytes go on untouched and unbuffered (a 50 MB download streams with flat
 * memory), the copy stays small. `onEnd` runs once, when the last byte has gone through (before
 * the reading side ends).
 *
 * A body that fits the copy (decompressed, for a compressed one) is hashed from the copy, and only
 * when its digest is read: only a recording reads it, and only of a body past the copy, so most
 * forwarded calls hash nothing. Past the copy (on the wire, or once decompressed) the body is
 * hashed as it streams, from its first byte (the copy), through a decompressor for a compressed
 * one, and the end waits for the digest to finish.
 */
export function bodyTap(onEnd: (copy: BodyCopy) => void, options: BodyTapOptions = {}): Transform {
  const limit = options.limit ?? BODY_COPY_LIMIT
  const encoding = (options.contentEncoding ?? '').trim().toLowerCase()
  const chunks: Buffer[] = []
  let kept = 0
  let total = 0
  const plain = encoding === '' || encoding === 'identity'
  let digest: StreamingDigest | null = null
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      total += chunk.length
      let rest = chunk
      if (kept < limit) {
        const part = chunk.subarray(0, limit - kept)
        chunks.push(Buffer.from(part))
        kept += part.length
        rest = chunk.subarray(part.length)
      }
      // The bytes go on at once; the next chunk waits only for a decompressing digest to catch up.
      this.push(chunk)
      if (digest !== null) return digest.write(chunk, () => callback())
      if (rest.length === 0) return callback()
      // Past the copy: hashed from its first byte (the copy), decompressed first if it is compressed.
      const started = plain ? plainDigest() : decodingDigestOf(encoding)
      digest = started
      started.write(Buffer.concat(chunks), () => started.write(rest, () => callback()))
    },
    flush(callback: TransformCallback) {
      const head = Buffer.concat(chunks)
      const truncated = total > kept
      const decoded = decodedCopy({ head, truncated }, encoding, limit)
      const finish = (whole: StreamedBodyDigest | null) => {
        try {
          onEnd({ head, totalBytes: total, truncated, decoded, whole })
        } catch {
          // Whatever watches the copy must not break the body the client is getting.
        }
        callback()
      }
      if (digest !== null) return digest.end(finish)
      if (plain) return finish(keptDigest(head))
      // An encoding this cannot undo: the body as kept is unknown, and so its digest.
      if (!DECODABLE.has(encoding)) return finish(null)
      // The whole compressed body is in the copy, and decompressed fits it.
      if (!decoded.truncated) return finish(keptDigest(decoded.body))
      // It decompresses past the copy (or not at all): streamed through a decompressor for the digest.
      const late = decodingDigestOf(encoding)
      digest = late
      late.write(head, () => late.end(finish))
    },
    destroy(error, callback) {
      digest?.destroy()
      callback(error)
    }
  })
}

/** The digest of a whole body held in the copy, hashed the first time it is read. */
function keptDigest(body: Buffer): StreamedBodyDigest {
  let sha256: string | null = null
  return {
    bytes: body.length,
    get sha256() {
      return (sha256 ??= sha256Of(body))
    }
  }
}

/** Counts and hashes a body as it streams; `end` answers the digest, or null when it is unknown. */
interface StreamingDigest {
  write(chunk: Buffer, done: () => void): void
  end(done: (whole: StreamedBodyDigest | null) => void): void
  destroy(): void
}

/** A digest of the body `encoding` (gzip, deflate, br) decompressed; unknown (null) for any other encoding. */
function decodingDigestOf(encoding: string): StreamingDigest {
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null
  // An encoding this cannot undo (or a list of them): the body as kept is unknown, and so its digest.
  if (decoder === null) return { write: (_chunk, done) => done(), end: (done) => done(null), destroy: () => undefined }
  return decodingDigest(decoder)
}

function plainDigest(): StreamingDigest {
  const hash = createHash('sha256')
  let bytes = 0
  return {
    write(chunk, done) {
      bytes += chunk.length
      hash.update(chunk)
      done()
    },
    end: (done) => done({ bytes, sha256: hash.digest('hex') }),
    destroy: () => undefined
  }
}

/** The digest of what `decoder` makes of the body: its output is hashed as it comes and dropped. */
function decodingDigest(decoder: Transform): StreamingDigest {
  const hash = createHash('sha256')
  let bytes = 0
  let failed = false
  let waiting: (() => void) | null = null
  let ending: ((whole: StreamedBodyDigest | null) => void) | null = null
  const release = () => {
    const next = waiting
    waiting = null
    next?.()
  }
  const settle = () => {
    const done = ending
    ending = null
    done?.(failed ? null : { bytes, sha256: hash.digest('hex') })
  }
  const fail = () => {
    if (failed) return
    failed = true
    decoder.destroy()
    release()
    settle()
  }
  decoder.on('data', (out: Buffer) => {
    if (failed) return
    bytes += out.length
    if (bytes > MAX_DIGEST_DECODED_BYTES) fail()
    else hash.update(out)
  })
  decoder.on('drain', release)
  // Corrupt or cut short: the body as kept is unknown. Never an error for the client's stream.
  decoder.on('error', fail)
  decoder.on('end', settle)
  return {
    write(chunk, done) {
      if (failed || decoder.write(chunk)) return done()
      waiting = done
    },
    end(done) {
      if (failed) return done(null)
      ending = done
      decoder.end()
    },
    destroy() {
      failed = true
      decoder.destroy()
    }
  }
}

/**
 * The copy decompressed per Content-Encoding (gzip, deflate, br), capped at `limit`. A cut copy
 * is decompressed as far as it goes; an encoding this cannot read leaves the bytes as they were.
 */
export function decodedCopy(
  copy: Pick<BodyCopy, 'head' | 'truncated'>,
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
