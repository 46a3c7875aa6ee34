import { beforeAll, describe, expect, it } from 'vitest'

import { expectError, ownedProduct } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// The retired developer-level key model: 410 LEGACY_PLUGIN_KEYS_RETIRED with the product-scoped replacement.
describe('legacy developer-level plugin key endpoints', () => {
  let token: string
  const emulator = useEmulator()
  beforeAll(async () => {
    token = (await ownedProduct(emulator)).developer.token
  })

  it.each(['/api/developer/plugin-keys', '/api/developer/plugin-keys/reveal-secret'])(
    'POST %s answers 410 with the replacement',
    async (path) => {
      for (const options of [{}, { token }, { token, body: { reason: 'old client' } }]) {
        const result = await emulator.request('POST', path, options)
        expectError(result, 410, 'LEGACY_PLUGIN_KEYS_RETIRED')
        expect(result.body.replacement).toBe('/api/developer/plugin-keys/products/:productId')
        expect(result.text).not.toMatch(/"(?:pk|sk)_[A-Za-z0-9]{16,}/)
      }
    }
  )

  it('issues nothing: the developer still has no credentials', async () => {
    await emulator.request('POST', '/api/developer/plugin-keys', { token, body: {} })
    const listed = await emulator.request('GET', '/api/developer/plugin-keys/products', { token })
    expect(listed.body.count).toBe(0)
  })
})
