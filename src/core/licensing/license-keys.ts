import { randomBytes } from 'node:crypto'

// Crockford base32: no I, L, O or U, so a serial read aloud or typed from a box is unambiguous.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** A license serial such as `7KQ2M-...`: five groups of five, 125 random bits. */
export function newLicenseKey(): string {
  const bytes = randomBytes(25)
  let out = ''
  for (let i = 0; i < 25; i++) {
    if (i > 0 && i % 5 === 0) out += '-'
    out += ALPHABET[(bytes[i] as number) & 31]
  }
  return out
}
