import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'

const VERSION = 'v1'
const IV_BYTES = 12
/** Always the full 128-bit GCM tag: a shorter one given at open time must not be accepted. */
const TAG_BYTES = 16

/**
 * What seal() writes: version, base64 IV (12 bytes), base64 tag (16 bytes) and the base64 body,
 * joined by colons. A scenario document checks a sealed field's shape with it.
 */
export const SEALED_VALUE_PATTERN = '^v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/]{22}==:[A-Za-z0-9+/=]+$'

/** AES-256-GCM under the runtime key: how recoverable credential material is kept at rest. */
export interface SecretBox {
  /**
   * Names the runtime key without revealing it: stored beside each sealed value so that a
   * database opened under another key (a copied file, a replaced key file) knows, without
   * trying, that it cannot open what it holds.
   */
  readonly keyId: string
  seal(plaintext: string): string
  /** Returns null when the value was sealed under another key or was tampered with. */
  open(sealed: string): string | null
}

export function createSecretBox(runtimeKey: Buffer): SecretBox {
  if (runtimeKey.length !== 32) throw new Error('The runtime key must be 32 bytes.')
  return {
    keyId: runtimeKeyId(runtimeKey),
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', runtimeKey, iv, { authTagLength: TAG_BYTES })
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      const tag = cipher.getAuthTag()
      return [VERSION, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':')
    },
    open(sealed) {
      const parts = sealed.split(':')
      if (parts.length !== 4) return null
      const [version, ivText, tagText, body] = parts as [string, string, string, string]
      if (version !== VERSION) return null
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

/** A one-way fingerprint of the runtime key (an HMAC under the key of a fixed label), safe to store and show. */
export function runtimeKeyId(runtimeKey: Buffer): string {
  return (
    'rk_' +
    createHmac('sha256', runtimeKey).update('plugin-license-emulator runtime key id v1').digest('hex').slice(0, 16)
  )
}
