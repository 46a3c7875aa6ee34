import { Type } from 'typebox'
import { describe, expect, it } from 'vitest'

import { shownId } from '../../src/core/redaction/shown-id'
import { recogniseTokenKind } from '../../src/server/auth/token-kind-of'
import { withoutNullOptionals } from '../../src/server/plugins/tolerant-requests'

describe('shownId', () => {
  it('names an id of the right shape whole, and previews anything else', () => {
    expect(shownId('prod_demo_synth', 'prod')).toBe('prod_demo_synth')
    const secret = 'sk_AbCdEfGhIjKlMnOpQrStUvWxYz012345'
    const shown = shownId(secret, 'prod')
    expect(shown).not.toContain(secret)
    expect(shown).toBe('"sk_AbCdE...2345" (not shaped like a prod_ id)')
    expect(shownId('cus_x', 'prod')).not.toBe('cus_x')
  })
})

describe('withoutNullOptionals', () => {
  const schema = Type.Object({
    reason: Type.Optional(Type.String()),
    license_key: Type.String(),
    clears: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    nested: Type.Optional(Type.Object({ note: Type.Optional(Type.String()) }))
  })

  it('drops null on optional fields, keeps it where the field takes null or is required', () => {
    const body = { reason: null, license_key: null, clears: null, nested: { note: null }, other: null }
    expect(withoutNullOptionals(body, schema)).toEqual({ license_key: null, clears: null, nested: {}, other: null })
    expect(body.reason).toBeNull()
  })

  it('returns the same object when nothing changes', () => {
    const body = { reason: 'x', license_key: 'k' }
    expect(withoutNullOptionals(body, schema)).toBe(body)
  })
})

describe('recogniseTokenKind', () => {
  it('tells product credentials and the admin token apart from garbage', () => {
    expect(recogniseTokenKind('pk_abc123', 'admin-secret')).toBe('productCredential')
    expect(recogniseTokenKind('admin-secret', 'admin-secret')).toBe('adminToken')
    expect(recogniseTokenKind('not a token', 'admin-secret')).toBeNull()
  })
})
