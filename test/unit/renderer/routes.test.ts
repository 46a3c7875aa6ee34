import { describe, expect, it } from 'vitest'

import { buildHash, parseHash, SCREEN_IDS, SCREENS } from '../../../src/renderer/src/navigation/routes'

describe('hash routes', () => {
  it('parses a screen and its parameters', () => {
    expect(parseHash('#/credentials?product=prod_1')).toEqual({ screen: 'credentials', params: { product: 'prod_1' } })
    expect(parseHash('#/requests')).toEqual({ screen: 'requests', params: {} })
    expect(parseHash('#/library/extra?customer=cus%201')).toEqual({ screen: 'library', params: { customer: 'cus 1' } })
  })

  it('falls back to the overview for anything else', () => {
    expect(parseHash('')).toEqual({ screen: 'overview', params: {} })
    expect(parseHash('#admin-token=abc')).toEqual({ screen: 'overview', params: {} })
    expect(parseHash('#/nowhere')).toEqual({ screen: 'overview', params: {} })
  })

  it('builds hashes without empty parameters, and round-trips', () => {
    expect(buildHash('tester')).toBe('#/tester')
    expect(buildHash('credentials', { product: 'prod 1', other: '', none: null })).toBe('#/credentials?product=prod+1')
    expect(parseHash(buildHash('credentials', { product: 'prod 1' }))).toEqual({
      screen: 'credentials',
      params: { product: 'prod 1' }
    })
  })

  it('has a navigation entry for every screen', () => {
    expect(SCREENS.map((screen) => screen.id)).toEqual([...SCREEN_IDS])
  })
})
