import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// @ts-expect-error -- bench/ is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedFixtures from '../../bench/lib/fixtures.mjs'
import type { DeveloperActor } from '../../src/core/accounts/actor'
import { createClock } from '../../src/core/clock/clock'
import { authenticatePluginCredential } from '../../src/core/credentials/plugin-credential-auth'
import { sha256Hex } from '../../src/core/crypto/digest'
import { createEmulatorCore } from '../../src/core/emulator-core'
import type { EmulatorCore } from '../../src/core/emulator-core'
import { DomainError } from '../../src/core/errors/domain-error'
import { createLicenseRepository } from '../../src/core/licensing/license-repository'
import type { ImportCounts } from '../../src/core/scenarios/state-import'
import { openStore } from '../../src/core/store/store'
import type { Store } from '../../src/core/store/store'
import { libraryLinks } from '../../src/server/http/library-links'
import { makeTempDir } from '../support/temp-dir'

// What the bench reads of bench/lib/fixtures.mjs (its Fixtures typedef), and of the document.
interface PluginCredential {
  productId: string
  appId: string
  pluginKey: string
  pluginSecret: string
}
interface FixtureDocument {
  products: { id: string; developerId: string; appId: string }[]
  credentials: { productId: string; pluginKey: string; pluginSecret: string }[]
  licenses: { key: string; customerId: string }[]
}
interface Fixtures {
  document: FixtureDocument
  plugin: PluginCredential
  validateLicenses: { key: string; instanceId: string }[]
  activateKeys: string[]
  catalogDeveloperId: string
  libraryCustomerIds: Record<number, string>
}
const { buildFixtures, VALIDATE_LICENSES, ACTIVATE_LICENSES, CATALOG_PRODUCTS, LIBRARY_SIZES, HUGE_ACTIVATION_LIMIT } =
  untypedFixtures as {
    buildFixtures: () => Fixtures
    VALIDATE_LICENSES: number
    ACTIVATE_LICENSES: number
    CATALOG_PRODUCTS: number
    LIBRARY_SIZES: readonly number[]
    HUGE_ACTIVATION_LIMIT: number
  }

const BASE_URL = 'http://127.0.0.1:4747'

describe('bench fixtures: the document', () => {
  const fixtures = buildFixtures()

  it('has the sizes bench/README.md states', () => {
    expect(VALIDATE_LICENSES).toBe(200)
    expect(ACTIVATE_LICENSES).toBe(50)
    expect(CATALOG_PRODUCTS).toBe(1000)
    expect([...LIBRARY_SIZES]).toEqual([10, 1000])
    expect(HUGE_ACTIVATION_LIMIT).toBe(100_000_000)
    // Library customers own catalog products, one each.
    expect(Math.max(...LIBRARY_SIZES)).toBeLessThanOrEqual(CATALOG_PRODUCTS)
  })

  it('hands the runs distinct validate licenses and activate keys, and the ids of the other customers', () => {
    expect(fixtures.validateLicenses).toHaveLength(VALIDATE_LICENSES)
    expect(new Set(fixtures.validateLicenses.map((l) => l.key)).size).toBe(VALIDATE_LICENSES)
    expect(new Set(fixtures.validateLicenses.map((l) => l.instanceId)).size).toBe(VALIDATE_LICENSES)
    expect(fixtures.activateKeys).toHaveLength(ACTIVATE_LICENSES)
    expect(new Set(fixtures.activateKeys).size).toBe(ACTIVATE_LICENSES)
    expect(fixtures.catalogDeveloperId).toBe('dev_catalog')
    expect(fixtures.libraryCustomerIds).toEqual({ 10: 'cus_lib10', 1000: 'cus_lib1000' })
  })

  it('gives every product a credential in the scenario format, the plugin one among them', () => {
    const { credentials, products } = fixtures.document
    expect(credentials).toHaveLength(products.length)
    for (const credential of credentials) {
      expect(credential.pluginKey).toMatch(/^pk_[A-Za-z0-9]{32}$/)
      expect(credential.pluginSecret).toMatch(/^sk_[A-Za-z0-9]{32}$/)
    }
    expect(new Set(credentials.map((c) => c.pluginKey)).size).toBe(credentials.length)
    expect(fixtures.plugin.productId).toBe('prd_bench')
    expect(fixtures.plugin.appId).toMatch(/^app_[A-Za-z0-9]{32}$/)
    expect(credentials).toContainEqual(
      expect.objectContaining({
        productId: 'prd_bench',
        pluginKey: fixtures.plugin.pluginKey,
        pluginSecret: fixtures.plugin.pluginSecret
      })
    )
    expect(products).toContainEqual(expect.objectContaining({ id: 'prd_bench', appId: fixtures.plugin.appId }))
  })

  it('draws new credentials on every build, with the same license keys', () => {
    const again = buildFixtures()
    expect(again.plugin.pluginKey).not.toBe(fixtures.plugin.pluginKey)
    expect(again.plugin.pluginSecret).not.toBe(fixtures.plugin.pluginSecret)
    expect(again.validateLicenses).toEqual(fixtures.validateLicenses)
    expect(again.activateKeys).toEqual(fixtures.activateKeys)
  })
})

describe('bench fixtures: imported by the emulator', () => {
  const fixtures = buildFixtures()
  let dir: ReturnType<typeof makeTempDir>
  let store: Store
  let core: EmulatorCore
  let counts: ImportCounts

  beforeAll(async () => {
    dir = makeTempDir('bench-fixtures')
    store = openStore({ path: join(dir.path, 'emulator.db') })
    core = await createEmulatorCore({
      store,
      clock: createClock(),
      runtimeKey: Buffer.alloc(32, 1),
      apiBaseUrl: () => BASE_URL
    })
    counts = core.state.import(fixtures.document)
  })
  afterAll(() => {
    core.requests.close()
    store.close()
    dir.remove()
  })

  const catalogActor = (): DeveloperActor => ({
    kind: 'developer',
    developerId: fixtures.catalogDeveloperId,
    role: 'developer'
  })
  const benchProduct = () => {
    const product = core.products.find('prd_bench')
    if (!product) throw new Error('prd_bench was not imported')
    return product
  }

  it('imports every row of the document', () => {
    const items = 10 + 1000
    expect(counts).toEqual({
      developers: 2,
      products: 1 + CATALOG_PRODUCTS,
      credentials: 1 + CATALOG_PRODUCTS,
      customers: 4,
      marketingPreferences: 4,
      orders: items,
      orderItems: items,
      subscriptions: 0,
      entitlements: items,
      licenses: VALIDATE_LICENSES + ACTIVATE_LICENSES + items,
      activations: VALIDATE_LICENSES + items,
      files: 1 + CATALOG_PRODUCTS,
      credentialAudit: 0,
      connectionStatuses: 0,
      requests: 0
    })
  })

  it('gives the validate customer its licenses, each with one live activation of its instance', () => {
    const licenses = core.licenses.ofCustomer('cus_validate')
    expect(licenses).toHaveLength(VALIDATE_LICENSES)
    expect(licenses.map((l) => l.key).sort()).toEqual(fixtures.validateLicenses.map((l) => l.key).sort())
    const rows = createLicenseRepository(store)
    for (const { key, instanceId } of fixtures.validateLicenses) {
      const found = rows.activationState(rows.byKey(key)!.id, instanceId)
      expect(found.liveActivationCount).toBe(1)
      expect(found.activation?.instanceId).toBe(instanceId)
    }
  })

  it('answers VALID for every license the validate run sends, as the run sends it', async () => {
    const product = benchProduct()
    for (const { key, instanceId } of fixtures.validateLicenses) {
      const result = await core.licensing.validate(product, { licenseKey: key, instanceId })
      expect(result.code, key).toBe('VALID')
    }
  })

  it('gives the activate customer its licenses with the huge limit, and activates a new instance', async () => {
    const licenses = core.licenses.ofCustomer('cus_activate')
    expect(licenses.map((l) => l.key).sort()).toEqual([...fixtures.activateKeys].sort())
    for (const license of licenses) {
      expect(license.maxActivations).toBe(HUGE_ACTIVATION_LIMIT)
      expect(license.productId).toBe('prd_bench')
    }
    const key = fixtures.activateKeys[0] ?? ''
    const activated = await core.licensing.activate(benchProduct(), {
      licenseKey: key,
      instanceId: 'bench-instance-0',
      platform: 'linux',
      appVersion: '1.0.0'
    })
    expect(activated.created).toBe(true)
    expect(activated.standing.activationCount).toBe(1)
  })

  it('gives the catalog developer its products, each with an active credential', () => {
    const products = core.products.listVisible(catalogActor())
    expect(products).toHaveLength(CATALOG_PRODUCTS)
    const credentials = core.credentials.list(catalogActor())
    expect(credentials).toHaveLength(CATALOG_PRODUCTS)
    expect(credentials.every((c) => c.isActive && c.hasRecoverableSecret)).toBe(true)
    expect(new Set(credentials.map((c) => c.productId))).toEqual(new Set(products.map((p) => p.id)))
  })

  it('gives the library customers 10 and 1,000 items: product, download, license, order', async () => {
    for (const size of LIBRARY_SIZES) {
      const customer = core.customers.require(fixtures.libraryCustomerIds[size] ?? '')
      const library = await core.library.library(customer, { links: libraryLinks(BASE_URL) })
      expect(library.products, `library of ${size}`).toHaveLength(size)
      expect(library.products.every((p) => p.downloads.length === 1 && p.license_ids.length === 1)).toBe(true)
      expect(library.licenses).toHaveLength(size)
      expect(library.orders).toHaveLength(size)
    }
  })

  it('stores the plugin credential so it authenticates: key found, secret hash matches', () => {
    const { plugin } = fixtures
    const found = core.credentials.findByPluginKey(plugin.pluginKey)
    expect(found?.product).toMatchObject({ id: plugin.productId, appId: plugin.appId })
    expect(found?.credential.status).toBe('active')
    expect(found?.credential.secret_hash).toBe(sha256Hex(plugin.pluginSecret))
    const authenticated = authenticatePluginCredential(core, {
      appId: plugin.appId,
      pluginKey: plugin.pluginKey,
      pluginSecret: plugin.pluginSecret
    })
    expect(authenticated.product.id).toBe('prd_bench')
  })

  it('refuses the plugin key with another secret', () => {
    const { plugin } = fixtures
    let refused: unknown = null
    try {
      authenticatePluginCredential(core, {
        appId: plugin.appId,
        pluginKey: plugin.pluginKey,
        pluginSecret: `${plugin.pluginSecret}x`
      })
    } catch (error) {
      refused = error
    }
    expect(refused).toBeInstanceOf(DomainError)
    expect(refused).toMatchObject({ code: 'PRODUCT_CREDENTIAL_INVALID', debugDetails: { reason: 'SECRET_MISMATCH' } })
  })

  it('verifies the plugin connection with the body the verify run posts', async () => {
    await expect(core.connections.verify(fixtures.plugin)).resolves.toMatchObject({
      productId: 'prd_bench',
      appId: fixtures.plugin.appId,
      status: 'verified'
    })
  })
})
