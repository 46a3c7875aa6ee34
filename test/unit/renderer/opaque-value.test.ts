import { describe, expect, it } from 'vitest'

import { isOpaque } from '../../../src/renderer/src/screens/requests/opaque-value'

describe('which claim values the inspector wraps anywhere', () => {
  it('takes a random key id as opaque, whatever separators it holds', () => {
    // The kid CI drew: one `_` in its middle, parts of 24 and 18 characters.
    expect(isOpaque('Sk79t3SaVV1botRENEhRPo7i_SgjrEmR3yStYUqzDlk')).toBe(true)
    expect(isOpaque('EC-jw4-VbA4kL2mQ9x_Zt7Rp1sYuW3oN8cHfD6gJeIa')).toBe(true)
    expect(isOpaque('kLmNoPqRsTuVwXyZaBcDeFgHiJkLmNoPqRsTuVwXyZa')).toBe(true)
  })

  it('keeps paths, codes, ids and UUIDs in parts that wrap at their separators', () => {
    for (const text of [
      '/api/license/v1/validate',
      'PRODUCT_SCOPE_MISMATCH',
      'plugin-license-emulator',
      'lic_bench_validate_0001',
      '0b8f5c1e-7a3d-4c2b-9e6f-1a2b3c4d5e6f'
    ])
      expect(isOpaque(text), text).toBe(false)
  })
})
