import { describe, expect, it } from 'vitest'

import { newPluginKey, newPluginSecret } from '../../src/core/credentials/credential-material'
import { previewOf, redactJson, redactText, redactUrl } from '../../src/core/redaction/redact'

const JWT =
  'eyJhbGciOiJFZERTQSIsImtpZCI6ImFiYyJ9.eyJzdWIiOiJkZXZfMTIzIiwicm9sZSI6ImRldmVsb3BlciJ9.c2lnbmF0dXJlLWJ5dGVzLWhlcmUtMTIzNDU2Nzg5MA'

/** Splits a preview into what it keeps of the start and of the end. */
function keptParts(preview: string): { head: string; tail: string } {
  const at = preview.indexOf('...')
  expect(at).toBeGreaterThanOrEqual(0)
  return { head: preview.slice(0, at), tail: preview.slice(at + 3) }
}

describe('previewOf', () => {
  it('keeps the first 8 and last 4 characters of a long value', () => {
    const key = newPluginKey()
    expect(previewOf(key)).toBe(`${key.slice(0, 8)}...${key.slice(-4)}`)
  })

  it('never keeps more than 8 leading and 4 trailing characters, nor the whole value, at any length', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
    for (let length = 1; length <= 80; length++) {
      const value = alphabet.repeat(2).slice(0, length)
      const { head, tail } = keptParts(previewOf(value))
      expect(head.length).toBeLessThanOrEqual(8)
      expect(tail.length).toBeLessThanOrEqual(4)
      expect(value.startsWith(head)).toBe(true)
      expect(value.endsWith(tail)).toBe(true)
      expect(head.length + tail.length).toBeLessThan(length)
    }
  })

  it('does not show a short secret whole', () => {
    for (const value of ['a', 'abc', 'abcd', 'hunter2']) {
      expect(previewOf(value)).not.toContain(value)
    }
  })
})

describe('redactText', () => {
  it('hides plugin keys and secrets in free text', () => {
    const key = newPluginKey()
    const secret = newPluginSecret()
    const text = `verify failed for key=${key} secret "${secret}" (retry)`
    const out = redactText(text)
    expect(out).not.toContain(key)
    expect(out).not.toContain(secret)
    expect(out).toContain(previewOf(key))
    expect(out).toContain(previewOf(secret))
    expect(out.startsWith('verify failed for key=')).toBe(true)
    expect(out.endsWith('" (retry)')).toBe(true)
  })

  it('hides a key glued to underscores or other word characters', () => {
    const key = newPluginKey()
    const secret = newPluginSecret()
    for (const text of [`PLUGIN_KEY_${key}`, `${secret}_old`, `x-svc-plugin-key:${key}`, `[${secret}]`]) {
      const out = redactText(text)
      expect(out).not.toContain(key)
      expect(out).not.toContain(secret)
    }
  })

  it('hides JWTs, such as a Bearer header value', () => {
    const out = redactText(`Authorization: Bearer ${JWT}; next`)
    expect(out).not.toContain(JWT)
    expect(out).not.toContain(JWT.split('.')[1]!)
    expect(out).toContain('Authorization: Bearer eyJhbGci...')
    expect(out.endsWith('; next')).toBe(true)
  })

  it('catches the shortest secrets each pattern allows, alone and inside text', () => {
    const key = `sk_${'a'.repeat(16)}`
    const jwt = 'eyJaaaa.bbbb.cccccccc'
    for (const secret of [key, `clm_${'b'.repeat(16)}`, jwt]) {
      expect(redactText(secret)).not.toContain(secret)
      expect(redactText(`value=${secret};`)).not.toContain(secret)
    }
  })

  it('leaves ordinary text alone, including short pk_-like words and App IDs', () => {
    const text = 'product prod_abc with app_0123456789abcdefghij uses pk_short and a sk_ prefix'
    expect(redactText(text)).toBe(text)
  })
})

describe('redactJson', () => {
  it('previews values under secret-named fields whatever they look like, at any depth', () => {
    const input = {
      appId: 'app_visible',
      pluginKey: 'plain-looking-plugin-key',
      nested: { ProductSecret: 'x'.repeat(40), Authorization: 'Basic dXNlcjpwYXNz', password: 'hunter2' },
      list: [{ claim_token: 'claim-1234567890-abcdef' }, { library_token: 'lib-1234567890-abcdef' }],
      count: 3,
      flag: true,
      none: null
    }
    const out = redactJson(input) as typeof input
    const text = JSON.stringify(out)
    for (const secret of [
      'plain-looking-plugin-key',
      'x'.repeat(40),
      'dXNlcjpwYXNz',
      'hunter2',
      'claim-1234567890-abcdef',
      'lib-1234567890-abcdef'
    ]) {
      expect(text).not.toContain(secret)
    }
    expect(out.appId).toBe('app_visible')
    expect(out.pluginKey).toBe(previewOf('plain-looking-plugin-key'))
    expect(out.count).toBe(3)
    expect(out.flag).toBe(true)
    expect(out.none).toBeNull()
  })

  it('hides secret-looking strings under ordinary field names too', () => {
    const secret = newPluginSecret()
    const out = redactJson({ note: `leaked ${secret}`, values: [secret] })
    expect(JSON.stringify(out)).not.toContain(secret)
  })

  it('hides a secret used as a field name, keeping the value under the preview', () => {
    // A body like {"pk_...": 1} (a map keyed by plugin key, or a mistake) was stored whole.
    const key = newPluginKey()
    const out = redactJson({ [key]: 1, nested: { [JWT]: { ok: true } } }) as Record<string, unknown>
    expect(JSON.stringify(out)).not.toContain(key)
    expect(JSON.stringify(out)).not.toContain(JWT.split('.')[2]!)
    expect(out[previewOf(key)]).toBe(1)
  })

  it('keeps a member named __proto__ as a member, redacted, instead of losing it to the prototype', () => {
    // JSON.parse makes "__proto__" an own member; a body that sends one must be shown with it.
    const secret = newPluginSecret()
    const out = redactJson(JSON.parse(`{"__proto__":{"plugin_secret":"${secret}","n":1},"after":2}`))
    expect(JSON.parse(JSON.stringify(out))).toEqual(
      JSON.parse(`{"__proto__":{"plugin_secret":"${previewOf(secret)}","n":1},"after":2}`)
    )
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
  })

  it('does not change its input', () => {
    const input = { pluginSecret: newPluginSecret() }
    const copy = structuredClone(input)
    redactJson(input)
    expect(input).toEqual(copy)
  })
})

describe('redactUrl', () => {
  it('previews token query values and keeps the rest', () => {
    const token = 'lib_tok_1234567890abcdefghij'
    const out = redactUrl(`/api/library?token=${token}&storefront=main-store&instance_id=abc`)
    expect(out).not.toContain(token)
    expect(out.startsWith('/api/library?')).toBe(true)
    const params = new URL(out, 'http://x').searchParams
    expect(params.get('token')).toBe(previewOf(token))
    expect(params.get('storefront')).toBe('main-store')
    expect(params.get('instance_id')).toBe('abc')
  })

  it('matches secret parameter names case-insensitively', () => {
    for (const name of ['token', 'download_token', 'libraryToken', 'LIBRARYTOKEN', 'claim', 'claim_token']) {
      const value = 'secret-value-0123456789'
      expect(redactUrl(`/api/library?${name}=${value}`)).not.toContain(value)
    }
  })

  it('hides keys and JWTs in the path and in other parameters', () => {
    const key = newPluginKey()
    const out = redactUrl(`/api/x/${key}?next=${JWT}`)
    expect(out).not.toContain(key)
    expect(out).not.toContain(JWT)
    expect(redactUrl(`/api/x/${key}`)).not.toContain(key)
  })

  it('leaves a URL with nothing secret as it was', () => {
    expect(redactUrl('/api/developer/plugin-keys/products/prod_1')).toBe('/api/developer/plugin-keys/products/prod_1')
    expect(redactUrl('/api/library?storefront=main')).toBe('/api/library?storefront=main')
  })
})
