import { describe, expect, it } from 'vitest'
import { createCipheriv, randomBytes } from 'node:crypto'
import { createSecretBox, runtimeKeyId, sealedKeyIdOf } from '../../src/core/crypto/secret-box'

const PLAINTEXT = JSON.stringify({ appId: 'app_x', pluginKey: 'pk_abc', pluginSecret: 'sk_secret ünïcode ✓' })

/** Flips one bit of the decoded bytes of field `index` (`v2:keyId:iv:tag:ciphertext`: 2 = iv, 3 = tag, 4 = ciphertext). */
function flipBit(sealed: string, index: number): string {
  const parts = sealed.split(':')
  const bytes = Buffer.from(parts[index] ?? '', 'base64')
  bytes[0] = (bytes[0] ?? 0) ^ 0x01
  parts[index] = bytes.toString('base64')
  return parts.join(':')
}

describe('secret box (AES-256-GCM)', () => {
  const box = createSecretBox(randomBytes(32))

  it('opens what it sealed', () => {
    const sealed = box.seal(PLAINTEXT)
    expect(sealed).not.toContain('sk_secret')
    expect(box.open(sealed)).toBe(PLAINTEXT)
    expect(box.open(box.seal(''))).toBe('')
  })

  it('uses a fresh IV for every seal', () => {
    const ivs = new Set<string>()
    const sealedValues = new Set<string>()
    for (let i = 0; i < 50; i++) {
      const sealed = box.seal(PLAINTEXT)
      sealedValues.add(sealed)
      ivs.add(sealed.split(':')[2] ?? '')
    }
    expect(ivs.size).toBe(50)
    expect(sealedValues.size).toBe(50)
  })

  it.each([
    ['iv', 2],
    ['tag', 3],
    ['ciphertext', 4]
  ])('answers null when the %s was tampered with', (_name, index) => {
    const sealed = box.seal(PLAINTEXT)
    expect(box.open(flipBit(sealed, index))).toBeNull()
  })

  it('answers null for a truncated authentication tag', () => {
    const parts = box.seal(PLAINTEXT).split(':')
    const tag = Buffer.from(parts[3] ?? '', 'base64')
    for (const length of [4, 8, 12, 15]) {
      const truncated = [parts[0], parts[1], parts[2], tag.subarray(0, length).toString('base64'), parts[4]].join(':')
      expect(box.open(truncated)).toBeNull()
    }
  })

  it('answers null for a value sealed under another key', () => {
    const other = createSecretBox(randomBytes(32))
    expect(other.open(box.seal(PLAINTEXT))).toBeNull()
  })

  it('answers null for malformed input instead of throwing', () => {
    const sealed = box.seal(PLAINTEXT)
    for (const bad of ['', 'v1', 'v1::', 'v2', 'v3' + sealed.slice(2), sealed + ':extra', 'not:base64:at:all!', sealed.replace(/^v2/, 'V2')]) {
      expect(box.open(bad)).toBeNull()
    }
  })

  it('names the key that sealed a value by a fingerprint, never the key', () => {
    const key = randomBytes(32)
    const sealed = createSecretBox(key).seal(PLAINTEXT)
    expect(sealedKeyIdOf(sealed)).toBe(runtimeKeyId(key))
    expect(runtimeKeyId(key)).toMatch(/^[0-9a-f]{16}$/)
    expect(key.toString('hex')).not.toContain(runtimeKeyId(key))
    expect(runtimeKeyId(randomBytes(32))).not.toBe(runtimeKeyId(key))
    // A value whose recorded key id was changed does not open (and is not tried).
    const parts = sealed.split(':')
    parts[1] = runtimeKeyId(randomBytes(32))
    expect(createSecretBox(key).open(parts.join(':'))).toBeNull()
  })

  it('opens a legacy (v1) value, which names no key', () => {
    const key = randomBytes(32)
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 })
    const body = Buffer.concat([cipher.update(PLAINTEXT, 'utf8'), cipher.final()])
    const legacy = ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':')
    expect(sealedKeyIdOf(legacy)).toBeNull()
    expect(createSecretBox(key).open(legacy)).toBe(PLAINTEXT)
    expect(createSecretBox(randomBytes(32)).open(legacy)).toBeNull()
  })

  it('refuses a runtime key that is not 32 bytes', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow('32 bytes')
    expect(() => createSecretBox(Buffer.alloc(0))).toThrow('32 bytes')
  })
})
