import { beforeAll } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import type { Clock } from '../../src/core/clock/clock'
import { createCustomer, purchase } from './commerce'
import type { PurchaseKind } from './commerce'
import { useEmulator } from './emulator'
import type { TestEmulator } from './emulator'
import { pluginClient, productWithCredential } from './plugin-client'

/** A product with its first credential, and the developer who owns it. */
type OwnedProduct = Awaited<ReturnType<typeof productWithCredential>>

/** What a licensing test works with: a server on a test clock, two products with credentials, a customer. */
export interface LicensingSuite {
  readonly clock: Clock
  readonly emu: TestEmulator
  /** The product under test, and another one (for scope mismatches). */
  readonly product: OwnedProduct
  readonly otherProduct: OwnedProduct
  readonly customerId: string
  /** A purchase of the product under test by the customer. */
  buy(kind?: PurchaseKind, extra?: { expiresAt?: string; maxActivations?: number }): ReturnType<typeof purchase>
  /** A plugin calling with the product's credential, and one calling with the other product's. */
  plugin(): ReturnType<typeof pluginClient>
  otherPlugin(): ReturnType<typeof pluginClient>
}

/**
 * Registers the suite's beforeAll/afterAll in the calling describe block and returns its parts
 * (filled in before the first test runs). The clock starts at `at`; tests move it.
 */
export function licensingSuite(at: string, productNames: readonly [string, string]): LicensingSuite {
  const clock = createClock(() => Date.parse(at))
  const emu = useEmulator({ clock })
  const parts: { product?: OwnedProduct; otherProduct?: OwnedProduct; customerId?: string } = {}
  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`licensingSuite: ${name} is used before beforeAll ran`)
    return value
  }
  beforeAll(async () => {
    parts.product = await productWithCredential(emu, productNames[0])
    parts.otherProduct = await productWithCredential(emu, productNames[1])
    parts.customerId = (await createCustomer(emu)).id
  })

  const suite: LicensingSuite = {
    clock,
    emu,
    get product() {
      return ready(parts.product, 'product')
    },
    get otherProduct() {
      return ready(parts.otherProduct, 'otherProduct')
    },
    get customerId() {
      return ready(parts.customerId, 'customerId')
    },
    buy: (kind = 'perpetual', extra = {}) =>
      purchase(suite.emu, suite.customerId, suite.product.productId, { kind, ...extra }),
    plugin: () => pluginClient(suite.emu, suite.product),
    otherPlugin: () => pluginClient(suite.emu, suite.otherProduct)
  }
  return suite
}
