import { describe, expect, it } from 'vitest'

import { digestsEqual, sameSecret, sha256Hex } from '../../src/core/crypto/digest'

describe('sha256Hex', () => {
  it('is the standard SHA-256 in lower-case hex', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  })

  it('hashes UTF-8', () => {
    expect(sha256Hex('é')).toBe(sha256Hex('\u00e9'))
    expect(sha256Hex('é')).not.toBe(sha256Hex('e\u0301'))
  })
})

describe('digestsEqual', () => {
  const a = sha256Hex('pk_first')
  const b = sha256Hex('pk_second')

  it('is true for the same digest, in either case', () => {
    expect(digestsEqual(a, sha256Hex('pk_first'))).toBe(true)
    expect(digestsEqual(a, a.toUpperCase())).toBe(true)
  })

  it('is false for different digests, including a one-character change', () => {
    expect(digestsEqual(a, b)).toBe(false)
    const last = a.at(-1) === '0' ? '1' : '0'
    expect(digestsEqual(a, a.slice(0, -1) + last)).toBe(false)
  })

  it('is false for digests of different lengths', () => {
    expect(digestsEqual(a, a.slice(0, 32))).toBe(false)
    expect(digestsEqual(a, a + '00')).toBe(false)
  })

  it('is false for anything that is not whole hex, even when both sides are alike', () => {
    expect(digestsEqual('', '')).toBe(false)
    expect(digestsEqual('zz', 'yy')).toBe(false)
    expect(digestsEqual('abc', 'abd')).toBe(false)
    expect(digestsEqual(`${a}zz`, `${a}yy`)).toBe(false)
    expect(digestsEqual(a, `${a.slice(0, 10)}not-hex`)).toBe(false)
  })
})

describe('sameSecret', () => {
  it('is true only for the same secret, whatever the lengths', () => {
    expect(sameSecret('admin-token-123', 'admin-token-123')).toBe(true)
    expect(sameSecret('admin-token-123', 'admin-token-124')).toBe(false)
    expect(sameSecret('admin-token-123', 'admin-token-1234')).toBe(false)
    expect(sameSecret('', 'admin-token-123')).toBe(false)
    expect(sameSecret('', '')).toBe(true)
  })
})
