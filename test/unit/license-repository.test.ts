import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { createEmulatorCore } from '../../src/core/emulator-core'
import type { EmulatorCore } from '../../src/core/emulator-core'
import { createLicenseRepository } from '../../src/core/licensing/license-repository'
import type { LicenseRepository } from '../../src/core/licensing/license-repository'
import { openStore } from '../../src/core/store/store'
import type { Store } from '../../src/core/store/store'
import { makeTempDir } from '../support/temp-dir'

// The licensing calls read a license's live activation count and one instance's activation in
// one statement; these pin that statement against what the separate lookups answer.
describe("license rows: a license's activations in one read", () => {
  let dir: ReturnType<typeof makeTempDir>
  let store: Store
  let core: EmulatorCore
  let rows: LicenseRepository
  let key: string
  let product: { id: string; appId: string }

  beforeEach(async () => {
    dir = makeTempDir('license-rows')
    store = openStore({ path: join(dir.path, 'emulator.db') })
    core = await createEmulatorCore({
      store,
      clock: createClock(),
      runtimeKey: null,
      apiBaseUrl: () => 'http://127.0.0.1:4747'
    })
    rows = createLicenseRepository(store)
    const developer = core.developers.create({ email: 'dev@example.test' })
    const created = core.products.create({ developerId: developer.id, name: 'Synth' })
    product = { id: created.id, appId: created.appId }
    const customer = core.customers.create({ email: 'buyer@example.test' })
    key = core.purchases.purchase({ customerId: customer.id, productId: product.id, maxActivations: 5 }).license.key
  })
  afterEach(() => {
    core.requests.close()
    store.close()
    dir.remove()
  })

  const activate = (instanceId: string) =>
    core.licensing.activate(core.products.find(product.id)!, { licenseKey: key, instanceId })
  const deactivate = (instanceId: string) =>
    core.licensing.deactivate(core.products.find(product.id)!, { licenseKey: key, instanceId })

  const licenseId = () => rows.byKey(key)!.id

  it('answers no activations for a license that has none, or an unknown license', () => {
    expect(rows.activationState(licenseId(), 'machine-a')).toEqual({ liveActivationCount: 0, activation: null })
    expect(rows.activationState('lic_unknown', 'machine-a')).toEqual({ liveActivationCount: 0, activation: null })
  })

  it('counts only live activations and finds the live one of the instance asked about', async () => {
    await activate('machine-a')
    await activate('machine-b')
    deactivate('machine-b')
    await activate('machine-b')
    await activate('machine-c')
    deactivate('machine-c')

    const found = rows.activationState(licenseId(), 'machine-b')
    expect(found.liveActivationCount).toBe(2)
    expect(found.liveActivationCount).toBe(rows.liveActivationCount(licenseId()))
    // The re-activation, not the deactivated row of the same machine.
    expect(found.activation).toEqual(rows.liveActivation(licenseId(), 'machine-b'))
    expect(found.activation?.deactivatedAt).toBeNull()
  })

  it('has no activation for a deactivated instance, an unknown one, or when none is named', async () => {
    await activate('machine-a')
    await activate('machine-c')
    deactivate('machine-c')
    expect(rows.activationState(licenseId(), 'machine-c').activation).toBeNull()
    expect(rows.activationState(licenseId(), 'machine-z').activation).toBeNull()
    const unnamed = rows.activationState(licenseId(), null)
    expect(unnamed.activation).toBeNull()
    expect(unnamed.liveActivationCount).toBe(1)
  })
})
