import { createDeveloperService } from './accounts/developers'
import type { DeveloperService } from './accounts/developers'
import { createSessionTokens } from './accounts/session-tokens'
import type { SessionTokens } from './accounts/session-tokens'
import { announcingClock } from './changes/announcing-clock'
import { createChangeFeed } from './changes/change-feed'
import type { ChangeFeed } from './changes/change-feed'
import { createDataVersion } from './changes/data-version'
import { observeWrites } from './changes/write-observer'
import type { Clock } from './clock/clock'
import { createCommerceRepository } from './commerce/commerce-repository'
import { createOrderReversals } from './commerce/order-reversal'
import type { OrderReversals } from './commerce/order-reversal'
import { createPendingResellerOrders } from './commerce/pending-reseller-orders'
import type { PendingResellerOrders } from './commerce/pending-reseller-orders'
import { createPurchaseService } from './commerce/purchases'
import type { PurchaseService } from './commerce/purchases'
import { createConnectionStatusRepository } from './connections/connection-status-repository'
import { createConnectionVerifier } from './connections/connection-verifier'
import type { ConnectionVerifier } from './connections/connection-verifier'
import { createCredentialAudit } from './credentials/credential-audit'
import type { CredentialAudit } from './credentials/credential-audit'
import { createCredentialService } from './credentials/credential-service'
import type { CredentialService } from './credentials/credential-service'
import { createSecretBox } from './crypto/secret-box'
import { loadSigningKeys } from './crypto/signing-keys'
import type { SigningKeyRing } from './crypto/signing-keys'
import { createCustomerService } from './customers/customers'
import type { CustomerService } from './customers/customers'
import { createProductFileRepository } from './downloads/product-file-repository'
import { createProductFileService } from './downloads/product-files'
import type { ProductFileService } from './downloads/product-files'
import { createEntitlementAccess } from './entitlements/entitlement-access'
import type { EntitlementAccess } from './entitlements/entitlement-access'
import { createFaultRules } from './faults/fault-rules'
import type { FaultRules } from './faults/fault-rules'
import { createRequestLog } from './inspector/request-log'
import type { RequestLog } from './inspector/request-log'
import { cachedHoldings } from './library/holdings-cache'
import { createLibraryRepository } from './library/library-repository'
import { createLibraryService } from './library/library-service'
import type { LibraryService } from './library/library-service'
import { createLibraryTokens } from './library/library-tokens'
import type { LibraryTokens } from './library/library-tokens'
import { createLibraryView } from './library/library-view'
import { createLicenseAdmin } from './licensing/license-admin'
import type { LicenseAdmin } from './licensing/license-admin'
import { createLicenseRepository } from './licensing/license-repository'
import { createLicenseTokens } from './licensing/license-tokens'
import { createLicensingService } from './licensing/licensing-service'
import type { LicensingService } from './licensing/licensing-service'
import { createProductService } from './products/products'
import type { ProductService } from './products/products'
import { createRecordingService } from './recordings/recording-service'
import type { RecordingService } from './recordings/recording-service'
import { createStateService } from './scenarios/state-service'
import type { StateService } from './scenarios/state-service'
import { createRuntimeSettings, DEFAULT_HEADER_PREFIX } from './settings/runtime-settings'
import type { RuntimeSettings } from './settings/runtime-settings'
import { createRecordCounts } from './store/record-counts'
import type { RecordCounts } from './store/record-counts'
import { requestLogPathFor } from './store/request-log-database'
import type { Store } from './store/store'
import { createGracePeriod } from './subscriptions/grace-period'
import type { GracePeriod } from './subscriptions/grace-period'
import { createSubscriptionService } from './subscriptions/subscription-service'
import type { SubscriptionService } from './subscriptions/subscription-service'

/** Requests the inspector keeps before the oldest are dropped. */
export const DEFAULT_REQUEST_LOG_CAPACITY = 5000

/** Lifetime of a signed license token, apart from the license's own expiry. */
export const DEFAULT_LICENSE_TOKEN_TTL_S = 24 * 60 * 60

export interface EmulatorCoreOptions {
  store: Store
  clock: Clock
  /** 32 bytes, or null to run without one (new credentials are then unrecoverable). */
  runtimeKey: Buffer | null
  /** The base URL plugins should call; known only once the server listens. */
  apiBaseUrl: () => string
  licenseTokenTtlS?: number | undefined
  requestLogCapacity?: number | undefined
  /** The request log worker's entry (the bundle's); run from the sources, the TypeScript one. */
  requestLogWorker?: string | undefined
  /** The runtime settings at start (they change with PUT /_emulator/settings and with a scenario). */
  headerPrefix?: string | undefined
  strict?: boolean | undefined
}

/** Every domain service, wired over one store and one clock. */
export interface EmulatorCore {
  /** Where the database lives (`:memory:` for none). */
  databasePath: string
  /** Storage faults: whether writes fail now, waiting for another process's lock, SQLite errors as domain errors. */
  storage: Pick<Store, 'health' | 'whenWritable' | 'storageErrorOf' | 'stopWaitingForLock'>
  clock: Clock
  keys: SigningKeyRing
  sessions: SessionTokens
  developers: DeveloperService
  products: ProductService
  audit: CredentialAudit
  credentials: CredentialService
  connections: ConnectionVerifier
  customers: CustomerService
  purchases: PurchaseService
  /** Reseller orders waiting for their claim, with their claim links. */
  resellerOrders: PendingResellerOrders
  /** Refunds and chargebacks: what an order granted ends. */
  orders: OrderReversals
  licensing: LicensingService
  /** The subscription lifecycle's QA actions. */
  subscriptions: SubscriptionService
  /** How long a past_due subscription keeps access: a runtime setting. */
  grace: GracePeriod
  /** Whether a customer's entitlements still grant a product's downloads. */
  entitlements: EntitlementAccess
  licenses: LicenseAdmin
  files: ProductFileService
  libraryTokens: LibraryTokens
  library: LibraryService
  faults: FaultRules
  requests: RequestLog
  state: StateService
  /** Recordings of forwarded traffic (docs/upstream.md): not emulator data, a reset leaves them. */
  recordings: RecordingService
  /** Header prefix, strict mode, grace period: changed at runtime, carried by a scenario. */
  settings: RuntimeSettings
  /** Every change to state, announced as it happens (the UI's live view follows it). */
  changes: ChangeFeed
  counts: () => RecordCounts
  hasRuntimeKey: boolean
  /** The base URL plugins and customers are given in links. */
  apiBaseUrl: () => string
}

export async function createEmulatorCore(options: EmulatorCoreOptions): Promise<EmulatorCore> {
  const { store } = options
  const changes = createChangeFeed()
  // Before any service prepares a statement: every write to a data table is then announced.
  const dataVersion = createDataVersion()
  observeWrites(store.db, (entity, id, table) => {
    dataVersion.bump(table)
    if (!changes.isQuiet()) changes.announce({ kind: 'entity', entity, id })
  })
  store.onRollback(() => dataVersion.rolledBack())
  const clock = announcingClock(options.clock, () => changes.announce({ kind: 'clock' }))
  const keys = await loadSigningKeys(store, clock)
  const developers = createDeveloperService(store, clock)
  const products = createProductService(store, clock, dataVersion)
  const audit = createCredentialAudit(store, clock)
  const secretBox = options.runtimeKey ? createSecretBox(options.runtimeKey) : null
  const credentials = createCredentialService({
    store,
    clock,
    products,
    audit,
    secretBox,
    apiBaseUrl: options.apiBaseUrl,
    dataVersion
  })
  const connectionStatuses = createConnectionStatusRepository(store)
  const customers = createCustomerService(store, clock)
  const commerce = createCommerceRepository(store)
  const licenseRows = createLicenseRepository(store)
  const files = createProductFileService({ files: createProductFileRepository(store), products, clock })
  const libraryTokens = createLibraryTokens(keys, clock)
  const licenseTokens = createLicenseTokens(keys, clock, options.licenseTokenTtlS ?? DEFAULT_LICENSE_TOKEN_TTL_S)
  const faults = createFaultRules({ onChange: () => changes.announce({ kind: 'faults' }) })
  const requests = createRequestLog({
    path: requestLogPathFor(store.path),
    nativeBinding: store.nativeBinding,
    capacity: options.requestLogCapacity ?? DEFAULT_REQUEST_LOG_CAPACITY,
    clock,
    workerPath: options.requestLogWorker
  })
  const grace = createGracePeriod()
  const settings = createRuntimeSettings(
    { headerPrefix: options.headerPrefix ?? DEFAULT_HEADER_PREFIX, strict: options.strict ?? false },
    grace,
    () => changes.announce({ kind: 'settings' })
  )
  const libraryView = createLibraryView({
    clock,
    customers,
    queries: cachedHoldings(createLibraryRepository(store), dataVersion),
    grace
  })
  return {
    databasePath: store.path,
    storage: store,
    clock,
    keys,
    sessions: createSessionTokens(keys, clock),
    developers,
    products,
    audit,
    credentials,
    connections: createConnectionVerifier({ store, clock, products, credentials, audit, statuses: connectionStatuses }),
    customers,
    purchases: createPurchaseService({ store, clock, products, customers, commerce, licenses: licenseRows, secretBox }),
    resellerOrders: createPendingResellerOrders({ commerce, products, secretBox, apiBaseUrl: options.apiBaseUrl }),
    orders: createOrderReversals({ store, clock, commerce, licenses: licenseRows }),
    licensing: createLicensingService({ store, clock, rows: licenseRows, tokens: licenseTokens, grace, dataVersion }),
    subscriptions: createSubscriptionService({ store, clock, licenses: licenseRows, grace }),
    grace,
    entitlements: createEntitlementAccess({ clock, commerce, products, licenses: licenseRows, grace }),
    licenses: createLicenseAdmin(licenseRows, { clock, grace }),
    files,
    libraryTokens,
    library: createLibraryService({
      clock,
      customers,
      products,
      tokens: libraryTokens,
      view: libraryView,
      licenses: licenseRows
    }),
    faults,
    requests,
    state: createStateService({ store, clock, secretBox, faults, settings, requests, changes }),
    recordings: createRecordingService({ store, clock }),
    settings,
    changes,
    counts: createRecordCounts(store, requests),
    hasRuntimeKey: options.runtimeKey !== null,
    apiBaseUrl: options.apiBaseUrl
  }
}
