import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'

/** Pieces small enough that a JSON answer of a few hundred bytes arrives in several reads. */
const TRICKLE_CHUNK_BYTES = 64
/** Beyond this many pieces the timer gaps get too short to mean anything; pieces grow instead. */
const TRICKLE_MAX_CHUNKS = 100
/** Piece size and count when the length is unknown (a stream with no Content-Length). */
const UNKNOWN_LENGTH_CHUNK_BYTES = 1024
const UNKNOWN_LENGTH_CHUNKS = 20

export interface TricklePlan {
  chunkBytes: number
  /** Wait before every piece but the first. */
  gapMs: number
}

/**
 * How to cut a body of `totalBytes` so that its pieces are spread over `spreadMs`: the first
 * piece at once, the last one at `spreadMs`. With an unknown length the gaps assume a body of
 * about 20 KiB, so a longer one simply takes longer.
 */
export function tricklePlan(totalBytes: number | null, spreadMs: number): TricklePlan {
  if (totalBytes === null)
    return { chunkBytes: UNKNOWN_LENGTH_CHUNK_BYTES, gapMs: spreadMs / (UNKNOWN_LENGTH_CHUNKS - 1) }
  const wanted = Math.min(TRICKLE_MAX_CHUNKS, Math.max(2, Math.ceil(totalBytes / TRICKLE_CHUNK_BYTES)))
  const chunkBytes = Math.max(1, Math.ceil(totalBytes / wanted))
  const pieces = Math.max(1, Math.ceil(totalBytes / chunkBytes))
  return { chunkBytes, gapMs: pieces > 1 ? spreadMs / (pieces - 1) : 0 }
}

/**
 * The same bytes, re-cut into small pieces with a pause between them: a slow link, as the
 * client sees it. Destroying the stream (the client went away) cancels the pending pause and
 * the source, so nothing keeps writing to a closed socket.
 */
export function trickleStream(
  source: Buffer | AsyncIterable<Buffer | Uint8Array | string>,
  plan: TricklePlan
): Readable {
  const cancel = new AbortController()

  async function* pieces(): AsyncGenerator<Buffer> {
    let first = true
    const chunks = Buffer.isBuffer(source) ? [source] : source
    for await (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk)
      for (let offset = 0; offset < bytes.length; offset += plan.chunkBytes) {
        if (!first) {
          try {
            await sleep(plan.gapMs, undefined, { signal: cancel.signal })
          } catch {
            // Cancelled: the reader is gone; ending quietly keeps a client hang-up out of the error log.
            return
          }
        }
        first = false
        yield bytes.subarray(offset, offset + plan.chunkBytes)
      }
    }
  }

  const stream = Readable.from(pieces(), { objectMode: false })
  stream.once('close', () => cancel.abort())
  return stream
}
