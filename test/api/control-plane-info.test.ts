import { describe, expect, it } from 'vitest'

import { licensingSuite } from '../support/licensing-suite'

// GET /_emulator/info: what the Overview shows. The counts come from the core (one statement),
// not from SQL in the route; each one moves with what it counts.
describe('GET /_emulator/info', () => {
  const suite = licensingSuite('2031-03-03T03:00:00.000Z', ['Info Integrator', 'Info Other'])

  it('counts developers, products, credentials, customers, licenses, live activations and requests', async () => {
    const before = (await suite.emu.control('GET', '/info')).body
    expect(before.counts).toMatchObject({
      developers: 2,
      products: 2,
      credentials: 2,
      activeCredentials: 2,
      customers: 1,
      licenses: 0,
      activations: 0
    })
    const bought = await suite.buy('perpetual', { maxActivations: 3 })
    expect((await suite.plugin().activate(bought.license.key, 'studio-a')).status).toBe(201)
    expect((await suite.plugin().activate(bought.license.key, 'studio-b')).status).toBe(201)
    expect((await suite.plugin().deactivate(bought.license.key, 'studio-b')).status).toBe(200)
    await suite.emu.request('POST', `/api/developer/plugin-keys/products/${suite.product.productId}/revoke`, {
      token: suite.product.developer.token
    })
    const after = await suite.emu.control('GET', '/info')
    expect(after.status).toBe(200)
    expect(after.body.counts).toMatchObject({ credentials: 2, activeCredentials: 1, licenses: 1, activations: 1 })
    expect(after.body.counts.requests).toBeGreaterThan(before.counts.requests)
    expect(typeof after.body.databasePath).toBe('string')
  })

  it('counts a request that has just finished, though the log writes in batches', async () => {
    const before = (await suite.emu.control('GET', '/info')).body.counts.requests
    expect((await suite.plugin().validate('NOT-A-LICENSE', 'studio-a')).status).toBeGreaterThanOrEqual(400)
    const after = (await suite.emu.control('GET', '/info')).body.counts.requests
    expect(after).toBe(before + 1)
  })
})
