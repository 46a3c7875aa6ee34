import type { Clock } from '../clock/clock'
import type { CredentialAudit } from '../credentials/credential-audit'
import type { CredentialService } from '../credentials/credential-service'
import { digestsEqual, sha256Hex } from '../crypto/digest'
import { DomainError } from '../errors/domain-error'
import type { ProductService } from '../products/products'
import type { Store } from '../store/store'
import type {
  ConnectionFailureReason,
  ConnectionStatus,
  ConnectionStatusRepository
} from './connection-status-repository'

export interface ConnectionAttempt {
  productId: string
  appId: string
  pluginKey: string
  pluginSecret: string
}

export interface VerifiedConnection {
  productId: string
  appId: string
  status: 'verified'
  verifiedAt: string
}

const FAILURE_MESSAGES: Record<ConnectionFailureReason, string> = {
  UNKNOWN_PRODUCT: 'No product has this product ID. Check the product ID (it is not the App ID).',
  APP_ID_MISMATCH: 'The App ID does not belong to this product.',
  KEY_MISMATCH: 'The plugin key does not belong to this product.',
  SECRET_MISMATCH: 'The plugin secret does not match the plugin key.',
  CREDENTIAL_REVOKED: 'This credential has been revoked or rotated; regenerate the package with the active credential.'
}

export interface ConnectionVerifier {
  /** Resolves once the outcome is recorded; rejects with PLUGIN_CONNECTION_FAILED after recording a failure. */
  verify(attempt: ConnectionAttempt): Promise<VerifiedConnection>
  /** The product's connection status record: null before its first verification; PRODUCT_NOT_FOUND for no such product. */
  statusOf(productId: string): ConnectionStatus | null
}

/** Confirms that product ID, App ID, plugin key and plugin secret belong together, and records the outcome. */
export function createConnectionVerifier(deps: {
  store: Store
  clock: Clock
  products: ProductService
  credentials: CredentialService
  audit: CredentialAudit
  statuses: ConnectionStatusRepository
}): ConnectionVerifier {
  const { store, clock, products, credentials, audit, statuses } = deps
  return {
    async verify(attempt) {
      // Read and record in the turn's shared transaction (Store.groupCommit): one snapshot and one
      // commit for every verify of the turn.
      const outcome = await store.groupCommit(() => {
        const found = credentials.findByPluginKey(attempt.pluginKey)
        // The usual case, a key of this very product, needs no second lookup.
        const product = found?.product.id === attempt.productId ? found.product : products.find(attempt.productId)
        // Nothing written yet: nothing to record against, so the failure rolls back nothing.
        if (!product) throw failure('UNKNOWN_PRODUCT')
        const credential = found && found.product.id === product.id ? found.credential : null
        let reason: ConnectionFailureReason | null = null
        if (attempt.appId !== product.appId) reason = 'APP_ID_MISMATCH'
        else if (!credential) reason = 'KEY_MISMATCH'
        else if (credential.status !== 'active') reason = 'CREDENTIAL_REVOKED'
        else if (!digestsEqual(sha256Hex(attempt.pluginSecret), credential.secret_hash)) reason = 'SECRET_MISMATCH'
        const at = clock.nowIso()
        statuses.record({ productId: product.id, at, credentialId: credential?.id ?? null, failure: reason })
        audit.record({
          productId: product.id,
          credentialId: credential?.id ?? null,
          action: 'verify',
          outcome: reason ? 'failure' : 'success',
          actor: { kind: 'plugin' },
          reason
        })
        if (!reason && credential) credentials.markUsed(credential.id)
        return { product, reason, at }
      })
      const { product, reason, at } = outcome
      if (reason) throw failure(reason)
      return { productId: product.id, appId: product.appId, status: 'verified', verifiedAt: at }
    },
    statusOf: (productId) => statuses.get(products.require(productId).id)
  }
}

function failure(reason: ConnectionFailureReason): DomainError {
  return new DomainError('PLUGIN_CONNECTION_FAILED', FAILURE_MESSAGES[reason], {
    details: { verified: false },
    debugDetails: { reason },
    productionMessage: 'The plugin connection could not be verified.'
  })
}
