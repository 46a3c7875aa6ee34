import type { Store } from './store/store'
import type { Clock } from './clock/clock'
import { createSecretBox } from './crypto/secret-box'
import { loadSigningKeys } from './crypto/signing-keys'
import type { SigningKeyRing } from './crypto/signing-keys'
import { createDeveloperService } from './accounts/developers'
import type { DeveloperService } from './accounts/developers'
import { createSessionTokens } from './accounts/session-tokens'
import type { SessionTokens } from './accounts/session-tokens'
import { createProductService } from './products/products'
import type { ProductService } from './products/products'
import { createCredentialAudit } from './credentials/credential-audit'
import type { CredentialAudit } from './credentials/credential-audit'
import { createCredentialService } from './credentials/credential-service'
import type { CredentialService } from './credentials/credential-service'
import { createConnectionStatusRecords } from './connections/connection-status'
import type { ConnectionStatusRecords } from './connections/connection-status'
import { createConnectionVerifier } from './connections/connection-verifier'
import type { ConnectionVerifier } from './connections/connection-verifier'

export interface EmulatorCoreOptions {
  store: Store
  clock: Clock
  /** 32 bytes, or null to run without one (new credentials are then unrecoverable). */
  runtimeKey: Buffer | null
  /** The base URL plugins should call; known only once the server listens. */
  apiBaseUrl: () => string
}

/** Every domain service, wired over one store and one clock. */
export interface EmulatorCore {
  store: Store
  clock: Clock
  keys: SigningKeyRing
  sessions: SessionTokens
  developers: DeveloperService
  products: ProductService
  audit: CredentialAudit
  credentials: CredentialService
  connectionStatuses: ConnectionStatusRecords
  connections: ConnectionVerifier
  hasRuntimeKey: boolean
}

export async function createEmulatorCore(options: EmulatorCoreOptions): Promise<EmulatorCore> {
  const { store, clock } = options
  const keys = await loadSigningKeys(store, clock)
  const developers = createDeveloperService(store, clock)
  const products = createProductService(store, clock)
  const audit = createCredentialAudit(store, clock)
  const credentials = createCredentialService({
    store,
    clock,
    products,
    audit,
    secretBox: options.runtimeKey ? createSecretBox(options.runtimeKey) : null,
    apiBaseUrl: options.apiBaseUrl
  })
  const connectionStatuses = createConnectionStatusRecords(store)
  return {
    store,
    clock,
    keys,
    sessions: createSessionTokens(keys, clock),
    developers,
    products,
    audit,
    credentials,
    connectionStatuses,
    connections: createConnectionVerifier({ clock, products, credentials, audit, statuses: connectionStatuses }),
    hasRuntimeKey: options.runtimeKey !== null
  }
}
