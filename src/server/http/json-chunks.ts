import { Readable } from 'node:stream'
import type { FastifyReply } from 'fastify'

/** About this many characters of JSON a chunk: below glibc's 128 KiB mmap threshold, so its memory is reused. */
const CHUNK_CHARS = 64 * 1024

/** Elements in an array's first run: library items are 0.1 to 2 KB, so one run covers a small library's group. */
const FIRST_RUN = 16

/** Answers with no more array elements than this (in the walked groups) are one JSON.stringify. */
const ONE_STRING_ELEMENTS = 100

/** Plain objects this deep (the answer itself is 0) are walked; deeper ones are one `JSON.stringify`. */
const WALKED_DEPTH = 2

/**
 * `JSON.stringify(value)` as Buffers of about 64 KiB (or as the text itself when it is shorter than
 * one chunk), for answers of megabytes: the 1,000-item library is 1.9 MB. As one string it cost
 * three fresh allocations of its size a call: V8 joins the parts `JSON.stringify` built (on the
 * first read), Fastify measures its UTF-8 length, and the socket's `writev` encodes it into a new
 * buffer. Fresh memory is paid in page faults, and on a VM that hands freed pages back to its host
 * they dominated: about 7 ms each on Node 20 here, of a 27 ms call. Chunks this small reuse the
 * allocator's memory, and the socket takes Buffers as they are.
 *
 * The answer's plain objects are walked member by member to a depth of two. An array met in that
 * walk is written by JSON.stringify in runs of elements of about a chunk each (each run's text
 * without its brackets); anything deeper is JSON.stringify's whole. The text is JSON.stringify's
 * exactly (test/unit/json-chunks.test.ts): members JSON leaves out are left out, and anything but a
 * plain object or an array (a Date, a value with `toJSON`) is written by JSON.stringify.
 */
export function jsonChunks(value: unknown): string | Buffer[] {
  if (leftOutByJson(value))
    throw new TypeError('jsonChunks: a value JSON cannot write (undefined, a function or a symbol)')
  // A few dozen elements in all: one JSON.stringify, the walk's many small calls cost more (a 10-item library: 57 against 70 us).
  if (walkedElements(value, 0) <= ONE_STRING_ELEMENTS) return JSON.stringify(value)
  const chunks: Buffer[] = []
  let pending = ''
  const flush = (): void => {
    if (pending === '') return
    chunks.push(Buffer.from(pending, 'utf8'))
    pending = ''
  }
  const append = (text: string): void => {
    if (text.length >= CHUNK_CHARS) {
      flush()
      chunks.push(Buffer.from(text, 'utf8'))
      return
    }
    pending += text
    if (pending.length >= CHUNK_CHARS) flush()
  }
  const writeArray = (items: readonly unknown[]): void => {
    append('[')
    // Runs sized from the text of the run before.
    let run = FIRST_RUN
    for (let at = 0; at < items.length;) {
      const text = JSON.stringify(items.slice(at, at + run))
      if (at > 0) append(',')
      append(text.slice(1, -1))
      at += run
      run = Math.max(1, Math.floor((CHUNK_CHARS * run) / text.length))
    }
    append(']')
  }
  const write = (item: unknown, depth: number): void => {
    const shape = shapeOf(item, depth)
    if (shape === 'whole') return append(JSON.stringify(item))
    if (shape === 'array') return writeArray(item as readonly unknown[])
    append('{')
    let first = true
    for (const [key, member] of Object.entries(item as Record<string, unknown>)) {
      if (leftOutByJson(member)) continue
      append(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`)
      first = false
      write(member, depth + 1)
    }
    append('}')
  }
  write(value, 0)
  // Under a chunk in all: the text itself, as JSON.stringify would have given it.
  if (chunks.length === 0) return pending
  flush()
  return chunks
}

/**
 * How the walk writes `item` at `depth`: an array in runs, a plain object member by member, anything
 * else (a primitive, a value with `toJSON`, an object too deep or not plain) whole.
 */
function shapeOf(item: unknown, depth: number): 'whole' | 'array' | 'object' {
  if (item === null || typeof item !== 'object' || hasToJson(item)) return 'whole'
  if (Array.isArray(item)) return 'array'
  return depth < WALKED_DEPTH && isPlainObject(item) ? 'object' : 'whole'
}

/** How many array elements the walk would write in runs: an answer's size, without writing it. */
function walkedElements(item: unknown, depth: number): number {
  const shape = shapeOf(item, depth)
  if (shape === 'array') return (item as readonly unknown[]).length
  if (shape === 'whole') return 0
  let count = 0
  for (const member of Object.values(item as Record<string, unknown>)) count += walkedElements(member, depth + 1)
  return count
}

/** What JSON.stringify leaves out of an object and writes as `null` in an array. */
function leftOutByJson(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function'
}

/** An object of Object's own (or none): walked member by member; a Map, a boxed string or a class's is JSON.stringify's. */
function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

/**
 * A JSON answer sent as the chunks `jsonChunks` wrote: a stream for Fastify to pipe, with its
 * chunks and length kept for the request log (which reads only what it keeps of them).
 */
export class JsonChunksBody extends Readable {
  readonly chunks: readonly Buffer[]
  readonly byteLength: number
  private next = 0

  constructor(chunks: readonly Buffer[]) {
    super()
    this.chunks = chunks
    this.byteLength = chunks.reduce((sum, chunk) => sum + chunk.length, 0)
  }

  override _read(): void {
    while (this.next < this.chunks.length) {
      if (!this.push(this.chunks[this.next++])) return
    }
    this.push(null)
  }
}

/**
 * Sends `value` as JSON in chunks (`jsonChunks`), with its Content-Length: for answers of megabytes.
 * The route's serializer is not called for a stream; the value is the route's answer as it would
 * have returned it.
 */
export function sendJsonInChunks(reply: FastifyReply, value: unknown): FastifyReply {
  const json = jsonChunks(value)
  reply.type('application/json; charset=utf-8')
  // Fastify sends JSON text as it is (no serializer), with its length.
  if (typeof json === 'string') return reply.send(json)
  const body = new JsonChunksBody(json)
  return reply.header('content-length', String(body.byteLength)).send(body)
}
