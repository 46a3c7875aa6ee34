import { digestsEqual, sha256Hex } from '../crypto/digest'
import { DomainError } from '../errors/domain-error'
import type { Product, ProductService } from '../products/products'
import type { CredentialService } from './credential-service'

export interface PresentedCredential {
  appId: string | null
  pluginKey: string | null
  pluginSecret: string | null
}

export type PluginAuthFailure =
  'MISSING_CREDENTIAL' | 'APP_ID_MISMATCH' | 'KEY_UNKNOWN' | 'CREDENTIAL_REVOKED' | 'SECRET_MISMATCH'

const MESSAGES: Record<PluginAuthFailure, string> = {
  MISSING_CREDENTIAL: 'Send the App ID, plugin key and plugin secret headers.',
  APP_ID_MISMATCH: 'The App ID does not belong to the product of this plugin key.',
  KEY_UNKNOWN: 'The plugin key is not known.',
  CREDENTIAL_REVOKED: 'This credential has been revoked or rotated; regenerate the package.',
  SECRET_MISMATCH: 'The plugin secret does not match the plugin key.'
}

/**
 * Authenticates the three product credential values a plugin sends to the licensing API.
 * Success marks the credential used; failure is PRODUCT_CREDENTIAL_INVALID with a debug `reason`.
 */
export function authenticatePluginCredential(
  deps: { products: ProductService; credentials: CredentialService },
  presented: PresentedCredential
): { product: Product; credentialId: string } {
  const fail = (reason: PluginAuthFailure) =>
    new DomainError('PRODUCT_CREDENTIAL_INVALID', MESSAGES[reason], {
      debugDetails: { reason },
      productionMessage: 'The product credential is not valid.'
    })
  if (!presented.appId || !presented.pluginKey || !presented.pluginSecret) throw fail('MISSING_CREDENTIAL')
  const found = deps.credentials.findByPluginKey(presented.pluginKey)
  if (!found) throw fail('KEY_UNKNOWN')
  if (found.product.appId !== presented.appId) throw fail('APP_ID_MISMATCH')
  if (found.credential.status !== 'active') throw fail('CREDENTIAL_REVOKED')
  if (!digestsEqual(sha256Hex(presented.pluginSecret), found.credential.secret_hash)) throw fail('SECRET_MISMATCH')
  deps.credentials.markUsed(found.credential.id)
  return { product: found.product, credentialId: found.credential.id }
}
