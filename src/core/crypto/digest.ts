import { createHash, hash, timingSafeEqual } from 'node:crypto'

/**
 * SHA-256 of a high-entropy credential value. Plugin keys and secrets carry 192 random bits,
 * so a fast hash is enough: there is nothing to brute-force.
 */
export function sha256Hex(value: string): string {
  // The one-shot hash: a third of createHash's time for a short value (no Hash object), measured.
  return hash('sha256', value, 'hex')
}

const HEX_DIGEST = /^(?:[0-9a-f]{2})+$/i

/**
 * The one constant-time comparison of two secrets (the admin token, a presented credential's
 * digest), of any length: both are hashed first, so neither where they differ nor how long
 * the expected one is leaks.
 */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b))
}

/**
 * Compares two hex digests without leaking where they differ. A digest's length is no secret
 * (a SHA-256 is always 32 bytes), so the bytes are compared as they are: hashing both again, as
 * `sameSecret` must for secrets of any length, cost two more hashes on every licensing request.
 */
export function digestsEqual(a: string, b: string): boolean {
  // Only well-formed digests of one length can be equal; hex is compared as bytes, whatever its letter case.
  if (a.length !== b.length || !HEX_DIGEST.test(a) || !HEX_DIGEST.test(b)) return false
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'))
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}
