import type { LicenseCode } from '../../shared/contract/licensing'
import type { SubscriptionStanding } from '../subscriptions/subscription-lifecycle'
import type { License } from './license-repository'

export const LICENSE_MESSAGES: Record<LicenseCode, string> = {
  VALID: 'The license is valid.',
  NOT_FOUND: 'No license has this key.',
  SUSPENDED: 'The license is suspended.',
  EXPIRED: 'The license has expired.',
  REVOKED: 'The license has been revoked.',
  NOT_ACTIVATED: 'The license is not activated on this instance.',
  PRODUCT_SCOPE_MISMATCH: 'The license belongs to another product.',
  TOO_MANY_ACTIVATIONS: 'The license has reached its activation limit; deactivate another machine first.',
  TRIAL_EXPIRED: 'The trial has ended.'
}

/**
 * When a license stops being usable: its own expiry, or for a subscription the end of the
 * current paid period (the grace end while past_due; when it ended, once it has).
 */
export function effectiveExpiry(license: License, subscription: SubscriptionStanding | null): string | null {
  if (license.kind === 'subscription' && subscription) return subscription.accessUntil
  return license.expiresAt
}

/**
 * The standing of a license for a product at `now`, before any activation question.
 * Order matters: existence, scope, then the license's own state, then time.
 */
export function judgeLicense(input: {
  license: License | null
  /** The standing of the license's subscription at `now` (subscription-lifecycle). */
  subscription: SubscriptionStanding | null
  productId: string
  now: Date
}): LicenseCode {
  const { license, subscription, productId, now } = input
  if (!license) return 'NOT_FOUND'
  if (license.productId !== productId) return 'PRODUCT_SCOPE_MISMATCH'
  if (license.status === 'revoked') return 'REVOKED'
  if (license.status === 'suspended') return 'SUSPENDED'
  // A subscription license lasts while its subscription grants access: renewals, grace and all.
  if (license.kind === 'subscription' && subscription) return subscription.live ? 'VALID' : 'EXPIRED'
  const expiry = effectiveExpiry(license, subscription)
  if (expiry !== null && Date.parse(expiry) <= now.getTime()) {
    return license.kind === 'trial' ? 'TRIAL_EXPIRED' : 'EXPIRED'
  }
  return 'VALID'
}
