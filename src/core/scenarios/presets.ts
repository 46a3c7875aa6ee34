import { FILE_EXTENSIONS, FILE_PLATFORMS } from '../../shared/contract/downloads'
import type { LicenseKind } from '../../shared/contract/licensing'
import { SCENARIO_FORMAT, SCENARIO_VERSION } from './scenario-schema'
import type { ScenarioDocument, ScenarioRow } from './scenario-schema'

/**
 * Built-in scenarios QA would otherwise build by hand. Ids, keys and secrets are fixed and
 * documented (README), so scripts and plugin test builds can rely on them; times are relative
 * to the emulator clock at load.
 */
export interface Preset {
  name: string
  title: string
  description: string
  build(now: Date): ScenarioDocument
}

const DAY = 24 * 60 * 60 * 1000
const at = (now: Date, days: number) => new Date(now.getTime() + days * DAY).toISOString()

/** The demo credential every preset with an active credential uses. */
export const PRESET_CREDENTIAL = {
  productId: 'prod_demo_synth',
  appId: 'app_DemoSynth0000000000001',
  pluginKey: 'pk_DemoSynthPresetKey000000000001',
  pluginSecret: 'sk_DemoSynthPresetSecret0000000000001'
} as const

/** The claim token of the `reseller-claim` preset (stored as its hash and a sealed copy). */
export const PRESET_CLAIM_TOKEN = 'clm_PresetResellerClaim00000000001'

function developerAndProduct(now: Date): Pick<ScenarioDocument, 'developers' | 'products'> {
  return {
    developers: [
      {
        id: 'dev_demo',
        email: 'developer@example.test',
        name: 'Demo Developer',
        role: 'developer',
        createdAt: at(now, -30)
      }
    ],
    products: [
      {
        id: PRESET_CREDENTIAL.productId,
        developerId: 'dev_demo',
        name: 'Demo Synth',
        appId: PRESET_CREDENTIAL.appId,
        storefrontSlug: 'demo-audio',
        supportEmail: 'support@demo-audio.example.test',
        createdAt: at(now, -30)
      }
    ]
  }
}

function activeCredential(now: Date, extra: ScenarioRow = {}): ScenarioRow {
  return {
    id: 'cred_demo_1',
    productId: PRESET_CREDENTIAL.productId,
    pluginKey: PRESET_CREDENTIAL.pluginKey,
    pluginSecret: PRESET_CREDENTIAL.pluginSecret,
    status: 'active',
    createdAt: at(now, -30),
    secretShownOnceAt: at(now, -30),
    ...extra
  }
}

const files = (now: Date): ScenarioRow[] =>
  FILE_PLATFORMS.map((platform, index) => ({
    id: `file_demo_${platform}`,
    productId: PRESET_CREDENTIAL.productId,
    version: '2.1.0',
    platform,
    filename: `Demo-Synth-2.1.0-${platform}.${FILE_EXTENSIONS[platform]}`,
    sizeBytes: 48_000_000 + index * 1_000_000,
    createdAt: at(now, -10)
  }))

function document(name: string, description: string, body: Partial<ScenarioDocument>): ScenarioDocument {
  return { format: SCENARIO_FORMAT, version: SCENARIO_VERSION, name, description, ...body }
}

/** One purchase line of the full-library preset: order, item, entitlement, license. */
function owned(now: Date, n: number, kind: LicenseKind, license: ScenarioRow, subscriptionId: string | null = null) {
  const createdAt = at(now, -20 + n)
  return {
    order: {
      id: `ord_demo_${n}`,
      customerId: 'cus_demo',
      channel: 'direct',
      storefrontSlug: 'demo-audio',
      totalCents: kind === 'trial' ? 0 : 9900,
      createdAt
    },
    item: {
      id: `item_demo_${n}`,
      orderId: `ord_demo_${n}`,
      productId: PRESET_CREDENTIAL.productId,
      kind,
      unitPriceCents: kind === 'trial' ? 0 : 9900
    },
    entitlement: {
      id: `ent_demo_${n}`,
      customerId: 'cus_demo',
      productId: PRESET_CREDENTIAL.productId,
      orderItemId: `item_demo_${n}`,
      source: kind === 'perpetual' ? 'purchase' : kind,
      createdAt
    },
    license: {
      id: `lic_demo_${n}`,
      customerId: 'cus_demo',
      productId: PRESET_CREDENTIAL.productId,
      entitlementId: `ent_demo_${n}`,
      subscriptionId,
      kind,
      maxActivations: 2,
      createdAt,
      ...license
    }
  }
}

/** The products, subscriptions and what each grants for the subscription-lifecycle preset: one per state. */
function subscriptionLines(now: Date) {
  const lines: Array<{ n: number; productId: string; name: string; key: string; sub: ScenarioRow }> = [
    {
      n: 1,
      productId: PRESET_CREDENTIAL.productId,
      name: 'Demo Synth',
      key: 'SUBS1-ACTIV-ERENE-WS000-00001',
      sub: { status: 'active', currentPeriodEnd: at(now, 10) }
    },
    {
      n: 2,
      productId: 'prod_demo_chorus',
      name: 'Cancelling Chorus',
      key: 'SUBS2-CANCE-LLING-00000-00002',
      sub: { status: 'active', currentPeriodEnd: at(now, 5), cancelAtPeriodEnd: true, canceledAt: at(now, -2) }
    },
    {
      n: 3,
      productId: 'prod_demo_delay',
      name: 'Grace Delay',
      key: 'SUBS3-PASTD-UEGRA-CE000-00003',
      sub: { status: 'past_due', currentPeriodEnd: at(now, -2), paymentFailedAt: at(now, -2) }
    },
    {
      n: 4,
      productId: 'prod_demo_compressor',
      name: 'Ended Compressor',
      key: 'SUBS4-CANCE-LEDEN-DED00-00004',
      sub: { status: 'active', currentPeriodEnd: at(now, -3), cancelAtPeriodEnd: true, canceledAt: at(now, -20) }
    },
    {
      n: 5,
      productId: 'prod_demo_limiter',
      name: 'Lapsed Limiter',
      key: 'SUBS5-EXPIR-EDPAS-TGRAC-00005',
      sub: { status: 'past_due', currentPeriodEnd: at(now, -10), paymentFailedAt: at(now, -10) }
    }
  ]
  return lines.map(({ n, productId, name, key, sub }) => {
    const createdAt = at(now, -40 + n)
    return {
      product: {
        id: productId,
        developerId: 'dev_demo',
        name,
        appId: `app_SubsDemo${String(n).padStart(16, '0')}`,
        storefrontSlug: 'demo-audio',
        createdAt: at(now, -30)
      },
      order: {
        id: `ord_sub_${n}`,
        customerId: 'cus_demo',
        channel: 'direct',
        storefrontSlug: 'demo-audio',
        totalCents: 999,
        createdAt
      },
      item: { id: `item_sub_${n}`, orderId: `ord_sub_${n}`, productId, kind: 'subscription', unitPriceCents: 999 },
      subscription: { id: `sub_demo_${n}`, customerId: 'cus_demo', productId, plan: 'monthly', createdAt, ...sub },
      entitlement: {
        id: `ent_sub_${n}`,
        customerId: 'cus_demo',
        productId,
        orderItemId: `item_sub_${n}`,
        source: 'subscription',
        createdAt
      },
      license: {
        id: `lic_sub_${n}`,
        key,
        customerId: 'cus_demo',
        productId,
        entitlementId: `ent_sub_${n}`,
        subscriptionId: `sub_demo_${n}`,
        kind: 'subscription',
        maxActivations: 2,
        createdAt
      },
      file: {
        id: `file_sub_${n}`,
        productId,
        version: '1.0.0',
        platform: 'windows',
        filename: `${name.replace(/ /g, '-')}-1.0.0-windows.exe`,
        sizeBytes: 20_000_000,
        createdAt: at(now, -10)
      }
    }
  })
}

export const PRESETS: readonly Preset[] = [
  {
    name: 'fresh-developer',
    title: 'Fresh developer',
    description: 'One developer with one product and no credential yet: the first-run state.',
    build: (now) =>
      document('fresh-developer', 'One developer with one product and no credential yet.', developerAndProduct(now))
  },
  {
    name: 'full-library',
    title: 'Customer with a full library',
    description:
      'A customer owning Demo Synth seven ways: perpetual, subscription, trial, expired, revoked, suspended, and activation limit reached.',
    build(now) {
      const lines = [
        owned(now, 1, 'perpetual', { key: 'DEMO1-PERPE-TUAL0-00000-00001' }),
        owned(now, 2, 'subscription', { key: 'DEMO2-SUBSC-RIPTI-ON000-00002', expiresAt: at(now, 20) }, 'sub_demo'),
        owned(now, 3, 'trial', { key: 'DEMO3-TRIAL-00000-00000-00003', expiresAt: at(now, 7), maxActivations: 1 }),
        owned(now, 4, 'perpetual', { key: 'DEMO4-EXPIR-ED000-00000-00004', expiresAt: at(now, -1) }),
        owned(now, 5, 'perpetual', { key: 'DEMO5-REVOK-ED000-00000-00005', status: 'revoked' }),
        owned(now, 6, 'perpetual', { key: 'DEMO6-SUSPE-NDED0-00000-00006', status: 'suspended' }),
        owned(now, 7, 'perpetual', { key: 'DEMO7-LIMIT-REACH-ED000-00007', maxActivations: 1 })
      ]
      return document('full-library', this.description, {
        ...developerAndProduct(now),
        credentials: [activeCredential(now)],
        customers: [
          {
            id: 'cus_demo',
            userId: 'usr_demo',
            email: 'customer@example.test',
            name: 'Demo Customer',
            country: 'DE',
            locale: 'en-DE',
            createdAt: at(now, -25)
          }
        ],
        marketingPreferences: [
          { customerId: 'cus_demo', newsletter: true, productUpdates: true, updatedAt: at(now, -25) }
        ],
        orders: lines.map((l) => l.order),
        orderItems: lines.map((l) => l.item),
        subscriptions: [
          {
            id: 'sub_demo',
            customerId: 'cus_demo',
            productId: PRESET_CREDENTIAL.productId,
            plan: 'monthly',
            status: 'active',
            currentPeriodEnd: at(now, 20),
            createdAt: at(now, -18)
          }
        ],
        entitlements: lines.map((l) => l.entitlement),
        licenses: lines.map((l) => l.license),
        activations: [
          {
            id: 'act_demo_1',
            licenseId: 'lic_demo_1',
            instanceId: 'studio-mac',
            instanceName: 'Studio Mac',
            platform: 'macos',
            appVersion: '2.1.0',
            firstSeenAt: at(now, -15),
            lastSeenAt: at(now, -1)
          },
          {
            id: 'act_demo_7',
            licenseId: 'lic_demo_7',
            instanceId: 'laptop-win',
            instanceName: 'Laptop',
            platform: 'windows',
            appVersion: '2.1.0',
            firstSeenAt: at(now, -5),
            lastSeenAt: at(now, -1)
          }
        ],
        files: files(now)
      })
    }
  },
  {
    name: 'reseller-claim',
    title: 'Reseller order waiting for its claim',
    description: `A reseller order for Demo Synth, unclaimed; claim it with the token ${PRESET_CLAIM_TOKEN}.`,
    build(now) {
      return document('reseller-claim', this.description, {
        ...developerAndProduct(now),
        credentials: [activeCredential(now)],
        customers: [
          {
            id: 'cus_demo',
            userId: 'usr_demo',
            email: 'customer@example.test',
            name: 'Demo Customer',
            createdAt: at(now, -25)
          }
        ],
        marketingPreferences: [
          { customerId: 'cus_demo', newsletter: false, productUpdates: true, updatedAt: at(now, -25) }
        ],
        orders: [
          {
            id: 'ord_reseller',
            customerId: null,
            channel: 'reseller',
            reseller: 'Plugin Boutique',
            storefrontSlug: 'demo-audio',
            totalCents: 7900,
            createdAt: at(now, -2)
          }
        ],
        orderItems: [
          {
            id: 'item_reseller',
            orderId: 'ord_reseller',
            productId: PRESET_CREDENTIAL.productId,
            kind: 'perpetual',
            unitPriceCents: 7900,
            // In plain: the import keeps its hash and a sealed copy, so the pending list shows its link.
            claimToken: PRESET_CLAIM_TOKEN
          }
        ],
        files: files(now)
      })
    }
  },
  {
    name: 'revoked-credential',
    title: 'Revoked credential',
    description: 'Demo Synth whose only credential was revoked: verification and licensing calls with it fail.',
    build(now) {
      return document('revoked-credential', this.description, {
        ...developerAndProduct(now),
        credentials: [
          activeCredential(now, {
            status: 'revoked',
            revokedAt: at(now, -1),
            revokedReason: 'Exposed in a public repository',
            revocationCause: 'revoke'
          })
        ]
      })
    }
  },
  {
    name: 'legacy-credential',
    title: 'Legacy unrecoverable credential',
    description:
      'Demo Synth with an active credential made before recoverable storage: reveal-secret answers PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE.',
    build(now) {
      return document('legacy-credential', this.description, {
        ...developerAndProduct(now),
        credentials: [activeCredential(now, { sealedMaterial: null, secretShownOnceAt: null })]
      })
    }
  },
  {
    name: 'subscription-lifecycle',
    title: 'Subscriptions in every state',
    description:
      'A customer with five subscriptions on the emulator clock: active and renewing (Demo Synth), set to cancel at period end, past_due within its grace period, canceled (ended), and expired after its grace period. Only the live ones grant downloads.',
    build(now) {
      const lines = subscriptionLines(now)
      const { developers, products } = developerAndProduct(now)
      return document('subscription-lifecycle', this.description, {
        developers,
        products: [...(products ?? []), ...lines.slice(1).map((l) => l.product)],
        credentials: [activeCredential(now)],
        customers: [
          {
            id: 'cus_demo',
            userId: 'usr_demo',
            email: 'customer@example.test',
            name: 'Demo Customer',
            country: 'DE',
            locale: 'en-DE',
            createdAt: at(now, -45)
          }
        ],
        marketingPreferences: [
          { customerId: 'cus_demo', newsletter: false, productUpdates: true, updatedAt: at(now, -45) }
        ],
        orders: lines.map((l) => l.order),
        orderItems: lines.map((l) => l.item),
        subscriptions: lines.map((l) => l.subscription),
        entitlements: lines.map((l) => l.entitlement),
        licenses: lines.map((l) => l.license),
        files: lines.map((l) => l.file)
      })
    }
  }
]

export function findPreset(name: string): Preset | null {
  return PRESETS.find((preset) => preset.name === name) ?? null
}
