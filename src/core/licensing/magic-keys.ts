import type { LicenseCode } from '../../shared/contract/licensing'
import type { Product } from '../products/products'
import type { Activation, License } from './license-repository'

/**
 * Magic license keys: each answers one licensing code, deterministically, for any product,
 * with nothing set up — so a plugin's error paths can be exercised before any purchase exists.
 * Nothing is stored; activations of MAGIC-VALID are not counted.
 */
export const MAGIC_KEYS: Readonly<Record<string, LicenseCode>> = {
  'MAGIC-VALID': 'VALID',
  'MAGIC-NOT-FOUND': 'NOT_FOUND',
  'MAGIC-SUSPENDED': 'SUSPENDED',
  'MAGIC-EXPIRED': 'EXPIRED',
  'MAGIC-REVOKED': 'REVOKED',
  'MAGIC-NOT-ACTIVATED': 'NOT_ACTIVATED',
  'MAGIC-PRODUCT-SCOPE-MISMATCH': 'PRODUCT_SCOPE_MISMATCH',
  'MAGIC-TOO-MANY-ACTIVATIONS': 'TOO_MANY_ACTIVATIONS',
  'MAGIC-TRIAL-EXPIRED': 'TRIAL_EXPIRED'
}

export function magicCodeOf(licenseKey: string): LicenseCode | null {
  return MAGIC_KEYS[licenseKey.trim().toUpperCase()] ?? null
}

const DAY_MS = 24 * 60 * 60 * 1000

/** The license a magic key stands for, shaped so its state explains its code. */
export function magicLicense(code: LicenseCode, product: Product, now: Date): License {
  const lapsed = code === 'EXPIRED' || code === 'TRIAL_EXPIRED'
  return {
    id: `lic_magic_${code.toLowerCase()}`,
    key: `MAGIC-${code.replaceAll('_', '-')}`,
    customerId: 'cus_magic',
    productId: product.id,
    entitlementId: null,
    subscriptionId: null,
    kind: code === 'TRIAL_EXPIRED' ? 'trial' : 'perpetual',
    status: code === 'SUSPENDED' ? 'suspended' : code === 'REVOKED' ? 'revoked' : 'active',
    expiresAt: lapsed ? new Date(now.getTime() - DAY_MS).toISOString() : null,
    maxActivations: code === 'TOO_MANY_ACTIVATIONS' ? 1 : 2,
    createdAt: new Date(now.getTime() - 30 * DAY_MS).toISOString()
  }
}

export function magicActivation(license: License, instanceId: string, now: Date): Activation {
  const at = now.toISOString()
  return {
    id: `act_magic_${license.id.slice('lic_magic_'.length)}`,
    licenseId: license.id,
    instanceId,
    instanceName: null,
    platform: null,
    appVersion: null,
    firstSeenAt: at,
    lastSeenAt: at,
    deactivatedAt: null
  }
}
