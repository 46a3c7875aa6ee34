import { randomBytes } from 'node:crypto'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/**
 * `byteCount` random bytes written in base62: no `-`, `_` or `=`, so a value selects with a
 * double click and pastes cleanly into a header, an .env file or a C++ string literal.
 */
export function randomBase62(byteCount: number): string {
  let value = BigInt('0x' + randomBytes(byteCount).toString('hex'))
  const length = Math.ceil((byteCount * 8) / Math.log2(62))
  let out = ''
  for (let i = 0; i < length; i++) {
    out = BASE62[Number(value % 62n)] + out
    value /= 62n
  }
  return out
}

/** A record id such as `prod_1Yx...`: 96 random bits, enough to never collide locally. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(12)}`
}
