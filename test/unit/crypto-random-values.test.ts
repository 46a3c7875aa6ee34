import { describe, expect, it } from 'vitest'

import { newPluginKey, newPluginSecret } from '../../src/core/credentials/credential-material'
import { newId, randomBase62 } from '../../src/core/crypto/random'
import { newAppId } from '../../src/core/products/products'

const BITS_PER_BASE62_CHAR = Math.log2(62)

const kinds: ReadonlyArray<[string, string, () => string]> = [
  ['plugin key', 'pk_', newPluginKey],
  ['plugin secret', 'sk_', newPluginSecret],
  ['App ID', 'app_', newAppId]
]

describe.each(kinds)('%s', (_name, prefix, make) => {
  it(`starts with ${prefix} followed by base62 only`, () => {
    const value = make()
    expect(value.startsWith(prefix)).toBe(true)
    expect(value.slice(prefix.length)).toMatch(/^[0-9A-Za-z]+$/)
  })

  it('has room for at least 128 random bits after the prefix', () => {
    const body = make().slice(prefix.length)
    expect(body.length * BITS_PER_BASE62_CHAR).toBeGreaterThanOrEqual(128)
  })

  it('never repeats over 1000 draws, and the body varies in every position', () => {
    const values = Array.from({ length: 1000 }, make)
    expect(new Set(values).size).toBe(1000)
    // Every value has the same length, and no character position is stuck (e.g. all zero padding).
    const lengths = new Set(values.map((v) => v.length))
    expect(lengths.size).toBe(1)
    const length = values[0]!.length
    for (let i = prefix.length + 1; i < length; i++) {
      expect(new Set(values.map((v) => v[i])).size).toBeGreaterThan(10)
    }
  })
})

describe('randomBase62', () => {
  it('writes n bytes in ceil(8n / log2 62) characters', () => {
    for (const bytes of [1, 12, 16, 24, 32]) {
      expect(randomBase62(bytes)).toHaveLength(Math.ceil((bytes * 8) / BITS_PER_BASE62_CHAR))
    }
  })

  it('uses the whole alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomBase62(32)).join(''))
    expect(seen.size).toBe(62)
  })
})

describe('newId', () => {
  it('prefixes a random base62 id', () => {
    expect(newId('prod')).toMatch(/^prod_[0-9A-Za-z]{17}$/)
    expect(newId('prod')).not.toBe(newId('prod'))
  })
})
