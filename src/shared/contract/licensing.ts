/** Licensing vocabulary shared by core, the wire schemas and the UI. */

/** What a purchase, an order item and a license can be. */
export const LICENSE_KINDS = ['perpetual', 'subscription', 'trial'] as const
export type LicenseKind = (typeof LICENSE_KINDS)[number]

/** A license's own status, set by QA or by the platform (expiry is judged from dates, not stored here). */
export const LICENSE_STATUSES = ['active', 'suspended', 'revoked'] as const
export type LicenseStatus = (typeof LICENSE_STATUSES)[number]

/** Licensing outcomes (Keygen's names where the meaning matches); `VALID` is the only success. */
export const LICENSE_CODES = [
  'VALID',
  'NOT_FOUND',
  'SUSPENDED',
  'EXPIRED',
  'REVOKED',
  'NOT_ACTIVATED',
  'PRODUCT_SCOPE_MISMATCH',
  'TOO_MANY_ACTIVATIONS',
  'TRIAL_EXPIRED'
] as const
export type LicenseCode = (typeof LICENSE_CODES)[number]
export type LicenseFailureCode = Exclude<LicenseCode, 'VALID'>

/** The `iss` of every token the emulator signs: sessions, library tokens and license tokens. */
export const TOKEN_ISSUER = 'plugin-license-emulator'
