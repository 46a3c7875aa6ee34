import { randomFillSync } from 'node:crypto'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
/** The largest multiple of 62 a byte can hold: bytes from it up are drawn again, so no character is likelier. */
const UNBIASED_BELOW = 248

// Random bytes are drawn a pool at a time: one CSPRNG call per 4 KiB instead of one per id (an
// activation's id cost 12 us with a call and a BigInt conversion of its own, measured).
const pool = Buffer.alloc(4096)
let used = pool.length

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool)
    used = 0
  }
  const byte = pool[used] as number
  // Spent bytes are not kept: the pool never holds a secret already handed out.
  pool[used++] = 0
  return byte
}

/**
 * As many base62 characters as `byteCount` random bytes make (at least that much randomness):
 * no `-`, `_` or `=`, so a value selects with a double click and pastes cleanly into a header,
 * an .env file or a C++ string literal.
 */
export function randomBase62(byteCount: number): string {
  const length = Math.ceil((byteCount * 8) / Math.log2(62))
  let out = ''
  while (out.length < length) {
    const byte = randomByte()
    if (byte < UNBIASED_BELOW) out += BASE62[byte % 62]
  }
  return out
}

/** A record id such as `prod_1Yx...`: 96 random bits, enough to never collide locally. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(12)}`
}
