import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'

import { createSecretBox, SEALED_VALUE_PATTERN } from '../../src/core/crypto/secret-box'

const PLAINTEXT = JSON.stringify({ appId: 'app_x', pluginKey: 'pk_abc', pluginSecret: 'sk_secret ünïcode ✓' })

/** Flips one bit of the decoded bytes of field `index` (1 = iv, 2 = tag, 3 = ciphertext). */
function flipBit(sealed: string, index: number): string {
  const parts = sealed.split(':')
  const bytes = Buffer.from(parts[index] ?? '', 'base64')
  bytes[0] = (bytes[0] ?? 0) ^ 0x01
  parts[index] = bytes.toString('base64')
  return parts.join(':')
}

describe('secret box (AES-256-GCM)', () => {
  const box = createSecretBox(randomBytes(32))

  it('writes what SEALED_VALUE_PATTERN (the scenario check of a sealed field) accepts, short and long', () => {
    const box = createSecretBox(randomBytes(32))
    for (const plain of ['a', 'clm_PresetResellerClaim00000000001', 'x'.repeat(1000)])
      expect(box.seal(plain)).toMatch(new RegExp(SEALED_VALUE_PATTERN))
  })

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
      ivs.add(sealed.split(':')[1] ?? '')
    }
    expect(ivs.size).toBe(50)
    expect(sealedValues.size).toBe(50)
  })

  it.each([
    ['iv', 1],
    ['tag', 2],
    ['ciphertext', 3]
  ])('answers null when the %s was tampered with', (_name, index) => {
    const sealed = box.seal(PLAINTEXT)
    expect(box.open(flipBit(sealed, index))).toBeNull()
  })

  it('answers null for a truncated authentication tag', () => {
    const parts = box.seal(PLAINTEXT).split(':')
    const tag = Buffer.from(parts[2] ?? '', 'base64')
    for (const length of [4, 8, 12, 15]) {
      const truncated = [parts[0], parts[1], tag.subarray(0, length).toString('base64'), parts[3]].join(':')
      expect(box.open(truncated)).toBeNull()
    }
  })

  it('answers null for a value sealed under another key', () => {
    const other = createSecretBox(randomBytes(32))
    expect(other.open(box.seal(PLAINTEXT))).toBeNull()
  })

  it('answers null for malformed input instead of throwing', () => {
    const sealed = box.seal(PLAINTEXT)
    for (const bad of [
      '',
      'v1',
      'v1::',
      'v2' + sealed.slice(2),
      sealed + ':extra',
      'not:base64:at:all!',
      sealed.replace(/^v1/, 'V1')
    ]) {
      expect(box.open(bad)).toBeNull()
    }
  })

  it('refuses a runtime key that is not 32 bytes', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow('32 bytes')
    expect(() => createSecretBox(Buffer.alloc(0))).toThrow('32 bytes')
  })

  it('names its key by a stable id that reveals nothing of it', () => {
    const key = randomBytes(32)
    const id = createSecretBox(key).keyId
    expect(id).toMatch(/^rk_[0-9a-f]{16}$/)
    expect(createSecretBox(Buffer.from(key)).keyId).toBe(id)
    expect(createSecretBox(randomBytes(32)).keyId).not.toBe(id)
    for (const encoding of ['hex', 'base64', 'base64url'] as const)
      expect(id).not.toContain(key.toString(encoding).slice(0, 6))
  })
})
