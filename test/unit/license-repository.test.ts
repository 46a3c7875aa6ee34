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

/** A database with a developer's product and a customer, set up before each test and removed after it. */
function useLicensingWorld(name: string) {
  let dir: ReturnType<typeof makeTempDir>
  const world = {} as {
    store: Store
    core: EmulatorCore
    rows: LicenseRepository
    productId: string
    customerId: string
  }
  beforeEach(async () => {
    dir = makeTempDir(name)
    world.store = openStore({ path: join(dir.path, 'emulator.db') })
    world.core = await createEmulatorCore({
      store: world.store,
      clock: createClock(),
      runtimeKey: null,
      apiBaseUrl: () => 'http://127.0.0.1:4747'
    })
    world.rows = createLicenseRepository(world.store)
    const developer = world.core.developers.create({ email: 'dev@example.test' })
    world.productId = world.core.products.create({ developerId: developer.id, name: 'Synth' }).id
    world.customerId = world.core.customers.create({ email: 'buyer@example.test' }).id
  })
  afterEach(() => {
    world.core.requests.close()
    world.store.close()
    dir.remove()
  })
  const product = () => world.core.products.find(world.productId)!
  return {
    world,
    purchase: (maxActivations: number) =>
      world.core.purchases.purchase({ customerId: world.customerId, productId: world.productId, maxActivations })
        .license,
    activate: (licenseKey: string, instanceId: string) =>
      world.core.licensing.activate(product(), { licenseKey, instanceId }),
    deactivate: (licenseKey: string, instanceId: string) =>
      world.core.licensing.deactivate(product(), { licenseKey, instanceId })
  }
}

// The licensing calls read a license's live activation count and one instance's activation in
// one statement; these pin that statement against what the separate lookups answer.
describe("license rows: a license's activations in one read", () => {
  const licensing = useLicensingWorld('license-rows')
  const { world } = licensing
  let key: string
  beforeEach(() => {
    key = licensing.purchase(5).key
  })
  const activate = (instanceId: string) => licensing.activate(key, instanceId)
  const deactivate = (instanceId: string) => licensing.deactivate(key, instanceId)

  const licenseId = () => world.rows.byKey(key)!.id

  it('answers no activations for a license that has none, or an unknown license', () => {
    expect(world.rows.activationState(licenseId(), 'machine-a')).toEqual({ liveActivationCount: 0, activation: null })
    expect(world.rows.activationState('lic_unknown', 'machine-a')).toEqual({ liveActivationCount: 0, activation: null })
  })

  it('counts only live activations and finds the live one of the instance asked about', async () => {
    await activate('machine-a')
    await activate('machine-b')
    deactivate('machine-b')
    await activate('machine-b')
    await activate('machine-c')
    deactivate('machine-c')

    const found = world.rows.activationState(licenseId(), 'machine-b')
    expect(found.liveActivationCount).toBe(2)
    expect(found.liveActivationCount).toBe(world.rows.liveActivationCount(licenseId()))
    // The re-activation, not the deactivated row of the same machine.
    expect(found.activation).toEqual(world.rows.liveActivation(licenseId(), 'machine-b'))
    expect(found.activation?.deactivatedAt).toBeNull()
  })

  it('has no activation for a deactivated instance, an unknown one, or when none is named', async () => {
    await activate('machine-a')
    await activate('machine-c')
    deactivate('machine-c')
    expect(world.rows.activationState(licenseId(), 'machine-c').activation).toBeNull()
    expect(world.rows.activationState(licenseId(), 'machine-z').activation).toBeNull()
    const unnamed = world.rows.activationState(licenseId(), null)
    expect(unnamed.activation).toBeNull()
    expect(unnamed.liveActivationCount).toBe(1)
  })
})

// The count is kept by triggers on activations (migration 14), not counted on each call: every way
// a row can change must leave it equal to a count of the rows themselves.
describe('license rows: the live activation count the schema keeps', () => {
  const licensing = useLicensingWorld('license-counts')
  const { world, activate, deactivate } = licensing
  const purchase = () => licensing.purchase(1000)
  /** The count as the rows themselves say it. */
  const counted = (licenseId: string) =>
    (
      world.store.db
        .prepare('SELECT COUNT(*) AS n FROM activations WHERE license_id = ? AND deactivated_at IS NULL')
        .get(licenseId) as { n: number }
    ).n
  const kept = () =>
    world.store.db.prepare('SELECT license_id, live FROM live_activation_counts ORDER BY license_id').all()

  it('follows activations, deactivations, rows deleted or moved, and a deleted license', async () => {
    const first = purchase()
    const second = purchase()
    for (const machine of ['a', 'b', 'c', 'd']) await activate(first.key, `machine-${machine}`)
    await activate(second.key, 'machine-a')
    deactivate(first.key, 'machine-b')
    await activate(first.key, 'machine-b')
    deactivate(first.key, 'machine-c')
    expect(world.rows.liveActivationCount(first.id)).toBe(3)
    expect(world.rows.activationState(first.id, null).liveActivationCount).toBe(3)

    // Writes no licensing call makes, as a hand-edited database or a later feature might.
    world.store.db.prepare("DELETE FROM activations WHERE license_id = ? AND instance_id = 'machine-a'").run(first.id)
    world.store.db.prepare("UPDATE activations SET license_id = ? WHERE instance_id = 'machine-d'").run(second.id)
    world.store.db
      .prepare("UPDATE activations SET deactivated_at = NULL WHERE license_id = ? AND instance_id = 'machine-c'")
      .run(first.id)
    world.store.db.prepare("UPDATE activations SET last_seen_at = 'x' WHERE license_id = ?").run(first.id)
    for (const license of [first, second]) {
      expect(world.rows.liveActivationCount(license.id)).toBe(counted(license.id))
    }
    expect(world.rows.liveActivationCount(first.id)).toBe(2)
    expect(world.rows.liveActivationCount(second.id)).toBe(2)

    world.store.db.prepare('DELETE FROM licenses WHERE id = ?').run(second.id)
    expect(kept()).toEqual([{ license_id: first.id, live: 2 }])
    expect(world.core.counts().activations).toBe(2)
  })

  it('holds after a scenario import and a reset', async () => {
    const license = purchase()
    for (const machine of ['a', 'b', 'c']) await activate(license.key, `machine-${machine}`)
    deactivate(license.key, 'machine-b')
    const document = world.core.state.export()

    world.core.state.reset()
    expect(kept()).toEqual([])
    expect(world.rows.liveActivationCount(license.id)).toBe(0)

    world.core.state.import(document)
    expect(world.rows.liveActivationCount(license.id)).toBe(2)
    expect(world.rows.liveActivationCount(license.id)).toBe(counted(license.id))
    world.core.state.import(document)
    expect(kept()).toEqual([{ license_id: license.id, live: 2 }])
  })
})
