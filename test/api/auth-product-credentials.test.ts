import { beforeAll, describe, expect, it } from 'vitest'

import { credentialPath, CREDENTIALS_BASE, expectError, issueCredential, ownedProduct } from '../support/credentials'
import type { Material } from '../support/credentials'
import { useEmulator } from '../support/emulator'

// A product credential sent to a management endpoint: 403 PRODUCT_CREDENTIAL_NOT_ACCEPTED (docs/api.md section 1).
describe.each([
  { prefix: undefined, label: 'default prefix svc' },
  { prefix: 'acme', label: 'custom prefix acme' }
])('product credentials on the management API ($label)', ({ prefix }) => {
  const p = prefix ?? 'svc'
  let productId: string
  let developerToken: string
  let material: Material
  const emulator = useEmulator(prefix ? { headerPrefix: prefix } : {})
  beforeAll(async () => {
    const owned = await ownedProduct(emulator)
    productId = owned.product.id
    developerToken = owned.developer.token
    material = (await issueCredential(owned.api, productId)).material
  })

  const headerCases = (): Array<[string, Record<string, string>]> => [
    ['app id header', { [`x-${p}-app-id`]: material.appId }],
    ['plugin key header', { [`x-${p}-plugin-key`]: material.pluginKey }],
    ['plugin secret header', { [`x-${p}-plugin-secret`]: material.pluginSecret }],
    ['api key header', { [`x-${p}-api-key`]: material.pluginKey }],
    [
      'all three credential headers',
      {
        [`x-${p}-app-id`]: material.appId,
        [`x-${p}-plugin-key`]: material.pluginKey,
        [`x-${p}-plugin-secret`]: material.pluginSecret
      }
    ],
    ['plugin key as Bearer', { authorization: `Bearer ${material.pluginKey}` }],
    ['plugin secret as Bearer', { authorization: `Bearer ${material.pluginSecret}` }]
  ]

  it('refuses each credential header and a plugin key as Bearer, on reads and writes', async () => {
    for (const [label, headers] of headerCases()) {
      const list = await emulator.request('GET', CREDENTIALS_BASE, { headers })
      expectError(list, 403, 'PRODUCT_CREDENTIAL_NOT_ACCEPTED')
      const rotate = await emulator.request('POST', credentialPath(productId, 'rotate-key'), { headers, body: {} })
      expect(rotate.status, label).toBe(403)
      expect(rotate.body.error, label).toBe('PRODUCT_CREDENTIAL_NOT_ACCEPTED')
    }
    // None of it rotated anything.
    const listed = await emulator.request('GET', `${CREDENTIALS_BASE}?productId=${productId}`, {
      token: developerToken
    })
    expect(listed.body.count).toBe(1)
  })

  it('refuses a credential header even beside a valid developer JWT', async () => {
    const result = await emulator.request('POST', credentialPath(productId, 'reveal-secret'), {
      token: developerToken,
      headers: { [`x-${p}-plugin-key`]: material.pluginKey },
      body: {}
    })
    expectError(result, 403, 'PRODUCT_CREDENTIAL_NOT_ACCEPTED')
    expect(result.text).not.toContain(material.pluginSecret)
  })

  it('refuses credential header names in any letter case', async () => {
    const result = await emulator.request('GET', CREDENTIALS_BASE, {
      headers: { [`X-${p.toUpperCase()}-Plugin-Key`]: material.pluginKey }
    })
    expectError(result, 403, 'PRODUCT_CREDENTIAL_NOT_ACCEPTED')
  })
})
