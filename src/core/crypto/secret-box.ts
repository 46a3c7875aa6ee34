import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'

/** v2 names the key that sealed it; v1 (older databases) does not, and is re-sealed as v2 at start. */
const VERSION = 'v2'
const LEGACY_VERSION = 'v1'
const IV_BYTES = 12
/** Always the full 128-bit GCM tag: a shorter one given at open time must not be accepted. */
const TAG_BYTES = 16

/** AES-256-GCM under the runtime key: how recoverable credential material is kept at rest. */
export interface SecretBox {
  /** A fingerprint of the runtime key (16 hex characters of a domain-separated SHA-256), never the key. */
  readonly keyId: string
  seal(plaintext: string): string
  /** Returns null when the value was sealed under another key or was tampered with. */
  open(sealed: string): string | null
}

export function createSecretBox(runtimeKey: Buffer): SecretBox {
  if (runtimeKey.length !== 32) throw new Error('The runtime key must be 32 bytes.')
  const keyId = runtimeKeyId(runtimeKey)
  return {
    keyId,
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', runtimeKey, iv, { authTagLength: TAG_BYTES })
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      const tag = cipher.getAuthTag()
      return [VERSION, keyId, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':')
    },
    open(sealed) {
      const parts = sealed.split(':')
      if (parts[0] === VERSION && parts.length === 5 && parts[1] !== keyId) return null
      const fields = parts[0] === VERSION && parts.length === 5 ? parts.slice(2) : parts[0] === LEGACY_VERSION && parts.length === 4 ? parts.slice(1) : null
      if (!fields) return null
      const [ivText, tagText, body] = fields as [string, string, string]
      const iv = Buffer.from(ivText, 'base64')
      const tag = Buffer.from(tagText, 'base64')
      // Node accepts truncated GCM tags unless told the length: a 4-byte tag is far easier to forge.
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null
      try {
        const decipher = createDecipheriv('aes-256-gcm', runtimeKey, iv, { authTagLength: TAG_BYTES })
        decipher.setAuthTag(tag)
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
      } catch {
        return null
      }
    }
  }
}

/** The fingerprint of a runtime key, as sealed values record it. */
export function runtimeKeyId(runtimeKey: Buffer): string {
  return createHash('sha256').update('plugin-license-emulator/runtime-key-id\0').update(runtimeKey).digest('hex').slice(0, 16)
}

/** The key id a sealed value records; null for a legacy (v1) value or anything else. */
export function sealedKeyIdOf(sealed: string): string | null {
  const parts = sealed.split(':')
  return parts[0] === VERSION && parts.length === 5 ? (parts[1] ?? null) : null
}

/** True for a value sealed in the legacy format, which names no key. */
export const isLegacySealed = (sealed: string): boolean => sealed.startsWith(`${LEGACY_VERSION}:`)
