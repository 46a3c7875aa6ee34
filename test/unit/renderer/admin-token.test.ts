import { describe, expect, it } from 'vitest'

import {
  ADMIN_TOKEN_STORAGE_KEY,
  resolveAdminToken,
  tokenFromFragment
} from '../../../src/renderer/src/platform/admin-token'
import type { KeyValueStorage } from '../../../src/renderer/src/platform/admin-token'

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Record<string, string> } {
  const data = { ...initial }
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value
    },
    removeItem: (key) => {
      delete data[key]
    }
  }
}

describe('the admin token in the URL fragment', () => {
  it('reads the plain form the admin URL uses, URL-decoded', () => {
    expect(tokenFromFragment('#admin-token=abc123')).toEqual({ token: 'abc123', cleanedHash: '' })
    expect(tokenFromFragment('#admin-token=a%2Bb%3D')).toEqual({ token: 'a+b=', cleanedHash: '' })
  })

  it('keeps a route that follows or carries the token', () => {
    expect(tokenFromFragment('#admin-token=abc&/credentials?product=p1')).toEqual({
      token: 'abc',
      cleanedHash: '#/credentials?product=p1'
    })
    expect(tokenFromFragment('#/requests?admin-token=abc&status=4xx')).toEqual({
      token: 'abc',
      cleanedHash: '#/requests?status=4xx'
    })
    expect(tokenFromFragment('#/requests?admin-token=abc')).toEqual({ token: 'abc', cleanedHash: '#/requests' })
  })

  it('finds nothing in a fragment without it, or with an empty one', () => {
    expect(tokenFromFragment('#/overview')).toEqual({ token: null, cleanedHash: '#/overview' })
    expect(tokenFromFragment('')).toEqual({ token: null, cleanedHash: '' })
    expect(tokenFromFragment('#admin-token=')).toEqual({ token: null, cleanedHash: '' })
  })

  it('survives a malformed escape', () => {
    expect(tokenFromFragment('#admin-token=%E0%A4%A').token).toBe('%E0%A4%A')
  })
})

describe('resolving the admin token at startup', () => {
  it('stores a fragment token and asks to clean the address bar', () => {
    const storage = memoryStorage()
    expect(resolveAdminToken('#admin-token=tok', storage)).toEqual({
      token: 'tok',
      source: 'fragment',
      replaceHash: ''
    })
    expect(storage.data[ADMIN_TOKEN_STORAGE_KEY]).toBe('tok')
  })

  it('prefers a new fragment token over a stored one', () => {
    const storage = memoryStorage({ [ADMIN_TOKEN_STORAGE_KEY]: 'old' })
    expect(resolveAdminToken('#admin-token=new&/tester', storage)).toEqual({
      token: 'new',
      source: 'fragment',
      replaceHash: '#/tester'
    })
    expect(storage.data[ADMIN_TOKEN_STORAGE_KEY]).toBe('new')
  })

  it('uses the stored token after a reload, leaving the route alone', () => {
    const storage = memoryStorage({ [ADMIN_TOKEN_STORAGE_KEY]: 'kept' })
    expect(resolveAdminToken('#/library', storage)).toEqual({ token: 'kept', source: 'storage', replaceHash: null })
  })

  it('answers none without a token anywhere, and copes with storage that throws', () => {
    expect(resolveAdminToken('#/overview', memoryStorage())).toEqual({ token: null, source: 'none', replaceHash: null })
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('denied')
      },
      removeItem: () => undefined
    }
    expect(resolveAdminToken('#admin-token=x', broken)).toEqual({ token: 'x', source: 'fragment', replaceHash: '' })
    expect(resolveAdminToken('#/overview', broken)).toEqual({ token: null, source: 'none', replaceHash: null })
    expect(resolveAdminToken('#/overview', null).source).toBe('none')
  })
})
