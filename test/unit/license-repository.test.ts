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

// The count is kept by triggers on activations (migration 14), not counted on each call: every way
// a row can change must leave it equal to a count of the rows themselves.
describe('license rows: the live activation count the schema keeps', () => {
  let dir: ReturnType<typeof makeTempDir>
  let store: Store
  let core: EmulatorCore
  let rows: LicenseRepository
  let product: { id: string; appId: string }
  let customerId: string

  beforeEach(async () => {
    dir = makeTempDir('license-counts')
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
    customerId = core.customers.create({ email: 'buyer@example.test' }).id
  })
  afterEach(() => {
    core.requests.close()
    store.close()
    dir.remove()
  })

  const purchase = () => core.purchases.purchase({ customerId, productId: product.id, maxActivations: 1000 }).license
  const activate = (licenseKey: string, instanceId: string) =>
    core.licensing.activate(core.products.find(product.id)!, { licenseKey, instanceId })
  const deactivate = (licenseKey: string, instanceId: string) =>
    core.licensing.deactivate(core.products.find(product.id)!, { licenseKey, instanceId })
  /** The count as the rows themselves say it. */
  const counted = (licenseId: string) =>
    (
      store.db
        .prepare('SELECT COUNT(*) AS n FROM activations WHERE license_id = ? AND deactivated_at IS NULL')
        .get(licenseId) as { n: number }
    ).n
  const kept = () => store.db.prepare('SELECT license_id, live FROM live_activation_counts ORDER BY license_id').all()

  it('follows activations, deactivations, rows deleted or moved, and a deleted license', async () => {
    const first = purchase()
    const second = purchase()
    for (const machine of ['a', 'b', 'c', 'd']) await activate(first.key, `machine-${machine}`)
    await activate(second.key, 'machine-a')
    deactivate(first.key, 'machine-b')
    await activate(first.key, 'machine-b')
    deactivate(first.key, 'machine-c')
    expect(rows.liveActivationCount(first.id)).toBe(3)
    expect(rows.activationState(first.id, null).liveActivationCount).toBe(3)

    // Writes no licensing call makes, as a hand-edited database or a later feature might.
    store.db.prepare("DELETE FROM activations WHERE license_id = ? AND instance_id = 'machine-a'").run(first.id)
    store.db.prepare("UPDATE activations SET license_id = ? WHERE instance_id = 'machine-d'").run(second.id)
    store.db
      .prepare("UPDATE activations SET deactivated_at = NULL WHERE license_id = ? AND instance_id = 'machine-c'")
      .run(first.id)
    store.db.prepare("UPDATE activations SET last_seen_at = 'x' WHERE license_id = ?").run(first.id)
    for (const license of [first, second]) {
      expect(rows.liveActivationCount(license.id)).toBe(counted(license.id))
    }
    expect(rows.liveActivationCount(first.id)).toBe(2)
    expect(rows.liveActivationCount(second.id)).toBe(2)

    store.db.prepare('DELETE FROM licenses WHERE id = ?').run(second.id)
    expect(kept()).toEqual([{ license_id: first.id, live: 2 }])
    expect(core.counts().activations).toBe(2)
  })

  it('holds after a scenario import and a reset', async () => {
    const license = purchase()
    for (const machine of ['a', 'b', 'c']) await activate(license.key, `machine-${machine}`)
    deactivate(license.key, 'machine-b')
    const document = core.state.export()

    core.state.reset()
    expect(kept()).toEqual([])
    expect(rows.liveActivationCount(license.id)).toBe(0)

    core.state.import(document)
    expect(rows.liveActivationCount(license.id)).toBe(2)
    expect(rows.liveActivationCount(license.id)).toBe(counted(license.id))
    core.state.import(document)
    expect(kept()).toEqual([{ license_id: license.id, live: 2 }])
  })
})
