import { Transform } from 'node:stream'
import type { TransformCallback } from 'node:stream'

/** Request bytes kept for the inspector; bodies are shown cut at 16 KiB after redaction anyway. */
export const TAP_LIMIT_BYTES = 64 * 1024

/**
 * A pass-through that remembers the first bytes of a request body on their way to the parser,
 * so a body the parser refuses (malformed JSON) can still be shown as it arrived. Nothing is
 * decoded or redacted on the request path; at most TAP_LIMIT_BYTES are copied aside.
 */
export class BodyTap extends Transform {
  /** The kept bytes, in the chunks they came in. */
  readonly chunks: Buffer[] = []
  private kept = 0
  /** Bytes that went through, kept or not. */
  receivedBytes = 0

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.receivedBytes += chunk.length
    if (this.kept < TAP_LIMIT_BYTES) {
      // A copy: the parser gets `chunk` itself, and a socket's read buffer is no place to keep a view into.
      const part = Buffer.from(chunk.subarray(0, TAP_LIMIT_BYTES - this.kept))
      this.chunks.push(part)
      this.kept += part.length
    }
    done(null, chunk)
  }
}
