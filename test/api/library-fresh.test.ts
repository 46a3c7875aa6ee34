import { describe, expect, it } from 'vitest'

import { getLibrary, libraryTokenOf, purchase } from '../support/commerce'
import { licensingSuite } from '../support/licensing-suite'

// The library keeps a customer's rows between answers (core/library/holdings-cache.ts) until a
// data table is written. Each step reads the library, changes something through another surface
// (a plugin, the control plane, a scenario), and reads again straight away: the change shows.
describe('GET /api/library: never an answer older than the last change', () => {
  const suite = licensingSuite('2031-05-05T05:00:00.000Z', ['Fresh Synth', 'Fresh Drums'])
  const read = async (token: string) => {
    const answer = await getLibrary(suite.emu, token)
    expect(answer.status, answer.text).toBe(200)
    return answer.body
  }
  const licenseOf = (body: Record<string, any>, id: string) => body.licenses.find((l: { id: string }) => l.id === id)

  it('shows a purchase, an activation, a deactivation and a license change as soon as they are made', async () => {
    const token = await libraryTokenOf(suite.emu, suite.customerId)
    const before = await read(token)
    const bought = await suite.buy('perpetual', { maxActivations: 3 })
    const afterPurchase = await read(token)
    expect(afterPurchase.licenses.length).toBe(before.licenses.length + 1)
    expect(licenseOf(afterPurchase, bought.license.id).activations).toEqual([])

    expect((await suite.plugin().activate(bought.license.key, 'studio-a')).status).toBe(201)
    const activated = licenseOf(await read(token), bought.license.id)
    expect(activated.activations.map((a: { instance_id: string }) => a.instance_id)).toEqual(['studio-a'])

    // A validate moves the activation's last_seen_at; the next read shows the new time.
    const seenBefore = activated.activations[0].last_seen_at
    suite.clock.setOffsetMs(suite.clock.offsetMs() + 90_000)
    expect((await suite.plugin().validate(bought.license.key, 'studio-a')).status).toBe(200)
    expect(licenseOf(await read(token), bought.license.id).activations[0].last_seen_at).not.toBe(seenBefore)

    expect((await suite.emu.control('PATCH', `/licenses/${bought.license.id}`, { status: 'suspended' })).status).toBe(
      200
    )
    expect(licenseOf(await read(token), bought.license.id).status).toBe('suspended')

    expect((await suite.plugin().deactivate(bought.license.key, 'studio-a')).status).toBe(200)
    expect(licenseOf(await read(token), bought.license.id).activations).toEqual([])
  })

  it('shows another product bought for the customer, and forgets everything after a reset or an import', async () => {
    const token = await libraryTokenOf(suite.emu, suite.customerId)
    const before = await read(token)
    await purchase(suite.emu, suite.customerId, suite.otherProduct.productId)
    expect((await read(token)).products.length).toBe(before.products.length + 1)

    const exported = await suite.emu.control('GET', '/state')
    expect(exported.status).toBe(200)
    expect((await suite.emu.control('POST', '/reset')).status).toBe(200)
    expect((await getLibrary(suite.emu, token)).status).not.toBe(200)

    expect((await suite.emu.control('PUT', '/state', exported.body)).status).toBe(200)
    const restored = await read(await libraryTokenOf(suite.emu, suite.customerId))
    expect(restored.products.length).toBe(before.products.length + 1)
  })
})
