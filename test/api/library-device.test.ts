import { beforeAll, describe, expect, it } from 'vitest'

import { createCustomer, getLibrary, libraryTokenOf, purchase } from '../support/commerce'
import { useEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'

// `instance_id` / `instanceId` / `machine_id` mark which licenses are activated on that device (docs/api.md section 4).
describe('GET /api/library: marking what is activated on this device', () => {
  let token: string
  let activeLicenseId: string
  let idleLicenseId: string

  const emu = useEmulator()
  beforeAll(async () => {
    const active = await productWithCredential(emu, 'Device Synth')
    const idle = await productWithCredential(emu, 'Idle Sampler')
    const customer = await createCustomer(emu)
    const bought = await purchase(emu, customer.id, active.productId, { maxActivations: 3 })
    activeLicenseId = bought.license.id
    idleLicenseId = (await purchase(emu, customer.id, idle.productId)).license.id
    const plugin = pluginClient(emu, active)
    expect((await plugin.activate(bought.license.key, 'studio-mac')).status).toBe(201)
    expect((await plugin.activate(bought.license.key, 'laptop')).status).toBe(201)
    expect((await plugin.deactivate(bought.license.key, 'laptop')).status).toBe(200)
    token = await libraryTokenOf(emu, customer.id)
  })

  const licenseOf = (body: Record<string, any>, id: string) => body.licenses.find((l: { id: string }) => l.id === id)
  const productNamed = (body: Record<string, any>, name: string) =>
    body.products.find((p: { name: string }) => p.name === name)

  it.each(['instance_id', 'instanceId', 'machine_id'])(
    '?%s= marks the license and product activated on that device',
    async (param) => {
      const here = await getLibrary(emu, token, { [param]: 'studio-mac' })
      expect(here.status, here.text).toBe(200)
      expect(licenseOf(here.body, activeLicenseId).activated_on_this_device).toBe(true)
      expect(licenseOf(here.body, idleLicenseId).activated_on_this_device).toBe(false)
      expect(productNamed(here.body, 'Device Synth').activated_on_this_device).toBe(true)
      expect(productNamed(here.body, 'Idle Sampler').activated_on_this_device).toBe(false)
    }
  )

  it('a device that was deactivated, or never seen, is not marked', async () => {
    for (const device of ['laptop', 'never-seen']) {
      const there = await getLibrary(emu, token, { instance_id: device })
      expect(licenseOf(there.body, activeLicenseId).activated_on_this_device).toBe(false)
      expect(productNamed(there.body, 'Device Synth').activated_on_this_device).toBe(false)
    }
  })

  it('without a device, nothing is claimed either way (null)', async () => {
    const anywhere = await getLibrary(emu, token)
    expect(licenseOf(anywhere.body, activeLicenseId).activated_on_this_device).toBeNull()
    expect(productNamed(anywhere.body, 'Device Synth').activated_on_this_device).toBeNull()
    // The live activations are listed all the same.
    expect(
      licenseOf(anywhere.body, activeLicenseId).activations.map((a: { instance_id: string }) => a.instance_id)
    ).toEqual(['studio-mac'])
  })
})
