import { describe, expect, it } from 'vitest'

import { licensingSuite } from '../support/licensing-suite'
import { pluginClient } from '../support/plugin-client'

// A plugin key's match (credential and product) is kept between licensing requests until a data
// table other than activations is written (core/credentials/credential-service.ts). A change to the
// credential shows on the very next request, however many requests came before it.
describe('plugin key matches: never older than the last change', () => {
  const suite = licensingSuite('2031-06-06T06:00:00.000Z', ['Kept Synth', 'Kept Drums'])

  it('a revoked key fails on the next request, a rotated one at once, while activations leave the match alone', async () => {
    const bought = await suite.buy('perpetual', { maxActivations: 5 })
    expect((await suite.plugin().activate(bought.license.key, 'studio-a')).status).toBe(201)
    for (let i = 0; i < 3; i++) expect((await suite.plugin().validate(bought.license.key, 'studio-a')).status).toBe(200)

    const { productId, developer } = suite.product
    const rotated = await suite.emu.request('POST', `/api/developer/plugin-keys/products/${productId}/rotate-key`, {
      token: developer.token,
      body: {}
    })
    expect(rotated.status).toBe(201)
    const old = await suite.plugin().validate(bought.license.key, 'studio-a')
    expect(old.status).toBe(401)
    const fresh = pluginClient(suite.emu, { ...suite.product, ...rotated.body.one_time_reveal })
    expect((await fresh.validate(bought.license.key, 'studio-a')).status).toBe(200)
    expect((await fresh.activate(bought.license.key, 'studio-b')).status).toBe(201)
    expect((await fresh.validate(bought.license.key, 'studio-b')).status).toBe(200)

    const revoked = await suite.emu.request('POST', `/api/developer/plugin-keys/products/${productId}/revoke`, {
      token: developer.token,
      body: {}
    })
    expect(revoked.status).toBe(200)
    expect((await fresh.validate(bought.license.key, 'studio-a')).status).toBe(401)
  })
})
