import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * SHA-256 of a high-entropy credential value. Plugin keys and secrets carry 192 random bits,
 * so a fast hash is enough: there is nothing to brute-force.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex')
}

const HEX_DIGEST = /^(?:[0-9a-f]{2})+$/i

/** Compares two hex digests without leaking where they differ. */
export function digestsEqual(a: string, b: string): boolean {
  // Buffer.from(_, 'hex') silently stops at the first non-hex character ('zz' and '' both decode
  // to nothing, 'abc' and 'abd' to the same byte): only well-formed digests can be equal.
  if (!HEX_DIGEST.test(a) || !HEX_DIGEST.test(b)) return false
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && timingSafeEqual(left, right)
}
