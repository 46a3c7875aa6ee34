import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'

const VERSION = 'v1'

/** AES-256-GCM under the runtime key: how recoverable credential material is kept at rest. */
export interface SecretBox {
  seal(plaintext: string): string
  /** Returns null when the value was sealed under another key or was tampered with. */
  open(sealed: string): string | null
}

export function createSecretBox(runtimeKey: Buffer): SecretBox {
  if (runtimeKey.length !== 32) throw new Error('The runtime key must be 32 bytes.')
  return {
    seal(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', runtimeKey, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      const tag = cipher.getAuthTag()
      return [VERSION, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':')
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':')
      if (version !== VERSION || !iv || !tag || body === undefined) return null
      try {
        const decipher = createDecipheriv('aes-256-gcm', runtimeKey, Buffer.from(iv, 'base64'))
        decipher.setAuthTag(Buffer.from(tag, 'base64'))
        return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8')
      } catch {
        return null
      }
    }
  }
}
