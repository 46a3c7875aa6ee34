import { Type } from 'typebox'
import type { TSchema } from 'typebox'

import { errorStatus } from '../contract/error-codes'
import type { ErrorCode } from '../contract/error-codes'
import { errorResponses } from './common'

/** One specific error a route answers: its status and code, and an example body for the OpenAPI document. */
export interface ErrorAnswer {
  status: number
  error: ErrorCode
  message: string
  /** Extra top-level keys of this answer (`replacement`, `recovery`, `reason`, `details` ...). */
  details?: Record<string, unknown>
}

/**
 * A route's response entries for its specific errors, each status referring to the one shared
 * ErrorResponse schema with a description naming its codes and one example per code; the generic
 * 4xx and 5xx stay for everything else (validation, faults, the unexpected).
 */
export function errorAnswers(...answers: ErrorAnswer[]): Record<string, TSchema> {
  const byStatus = new Map<number, ErrorAnswer[]>()
  for (const answer of answers) byStatus.set(answer.status, [...(byStatus.get(answer.status) ?? []), answer])
  const entries: Record<string, TSchema> = {}
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const codes = [...new Set(list.map((answer) => answer.error))]
    entries[String(status)] = Type.Unsafe({
      description: codes.join(', '),
      content: {
        'application/json': {
          schema: { $ref: 'ErrorResponse' },
          examples: Object.fromEntries(
            list.map((answer) => [
              answer.error,
              {
                summary: answer.message,
                value: { ok: false, error: answer.error, message: answer.message, ...answer.details }
              }
            ])
          )
        }
      }
    })
  }
  return { ...entries, ...errorResponses }
}

const PRODUCT = '/api/developer/plugin-keys/products/prod_123'

/** Each answer's status is its code's in the contract's one table, never written here. */
function withStatuses<Name extends string>(
  answers: Record<Name, Omit<ErrorAnswer, 'status'>>
): Record<Name, ErrorAnswer> {
  const entries = Object.entries<Omit<ErrorAnswer, 'status'>>(answers).map(([name, answer]) => [
    name,
    { status: errorStatus(answer.error, answer.details?.reason), ...answer }
  ])
  return Object.fromEntries(entries) as Record<Name, ErrorAnswer>
}

/** The specific answers of the service's routes, with example bodies as the server words them. */
export const ERROR_ANSWERS = withStatuses({
  validation: {
    error: 'VALIDATION_ERROR',
    message: 'Missing required field "license_key" in the body.',
    details: { details: [{ location: 'body', path: '/', problem: "must have required property 'license_key'" }] }
  },
  authRequired: {
    error: 'AUTH_REQUIRED',
    message: 'Send a developer session token as "Authorization: Bearer <token>".'
  },
  invalidToken: { error: 'INVALID_TOKEN', message: 'The token was not issued by this emulator.' },
  tokenExpired: { error: 'TOKEN_EXPIRED', message: 'The session token has expired; mint a new one.' },
  credentialNotAccepted: {
    error: 'PRODUCT_CREDENTIAL_NOT_ACCEPTED',
    message:
      'Product credentials (App ID, plugin key, plugin secret) are for plugins and the licensing API; the management API needs a developer session token.'
  },
  productNotFound: { error: 'PRODUCT_NOT_FOUND', message: 'No product prod_123 is visible to this developer.' },
  credentialNotFound: {
    error: 'PRODUCT_CREDENTIAL_NOT_FOUND',
    message: 'Product prod_123 has no credential yet; create or ensure one.'
  },
  activeCredentialExists: {
    error: 'ACTIVE_CREDENTIAL_EXISTS',
    message: 'Product prod_123 already has an active credential. Use ensure or rotate instead.'
  },
  secretUnavailable: {
    error: 'PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE',
    message: 'The plugin secret of this credential cannot be revealed again. Rotate to get new values.',
    details: { recovery: { rotateKey: `${PRODUCT}/rotate-key`, rotateSecret: `${PRODUCT}/rotate-secret` } }
  },
  legacyRetired: {
    error: 'LEGACY_PLUGIN_KEYS_RETIRED',
    message: 'Developer-level plugin keys are retired. Use product-scoped credentials instead.',
    details: { replacement: '/api/developer/plugin-keys/products/:productId' }
  },
  connectionFailed: {
    error: 'PLUGIN_CONNECTION_FAILED',
    message: 'The plugin secret does not match this App ID and plugin key.',
    details: { verified: false, reason: 'SECRET_MISMATCH' }
  },
  productCredentialInvalid: {
    error: 'PRODUCT_CREDENTIAL_INVALID',
    message: 'Send the product credential: x-svc-app-id, x-svc-plugin-key and x-svc-plugin-secret.'
  },
  libraryTokenInvalid: {
    error: 'LIBRARY_TOKEN_INVALID',
    message: 'The library token is missing, not valid or expired.'
  },
  claimInvalid: {
    error: 'LIBRARY_CLAIM_FAILED',
    message: 'No reseller order item has this claim token.',
    details: { reason: 'INVALID_CLAIM_TOKEN' }
  },
  claimTaken: {
    error: 'LIBRARY_CLAIM_FAILED',
    message: 'This order item was already claimed by another account.',
    details: { reason: 'ALREADY_CLAIMED' }
  },
  entitlementRequired: {
    error: 'ENTITLEMENT_REQUIRED',
    message:
      'This account no longer has a live entitlement to the product of this file: what granted it was revoked, refunded or has expired.'
  },
  fileNotFound: { error: 'FILE_NOT_FOUND', message: 'No file has the id file_123.' },
  rangeNotSatisfiable: {
    error: 'RANGE_NOT_SATISFIABLE',
    message: "The requested range is outside the file's 4096 bytes."
  },
  licenseNotFound: { error: 'NOT_FOUND', message: 'No license has this key.' },
  notActivated: { error: 'NOT_ACTIVATED', message: 'The license is not active on this instance.' },
  suspended: { error: 'SUSPENDED', message: 'The license is suspended.' },
  expired: { error: 'EXPIRED', message: 'The license expired.' },
  revoked: { error: 'REVOKED', message: 'The license was revoked.' },
  trialExpired: { error: 'TRIAL_EXPIRED', message: 'The trial has ended.' },
  scopeMismatch: { error: 'PRODUCT_SCOPE_MISMATCH', message: 'The license belongs to another product.' },
  tooManyActivations: {
    error: 'TOO_MANY_ACTIVATIONS',
    message: 'All 2 activations of this license are in use; deactivate one first.'
  },
  subscriptionNotFound: { error: 'SUBSCRIPTION_NOT_FOUND', message: 'No subscription has the id sub_123.' },
  orderNotFound: { error: 'ORDER_NOT_FOUND', message: 'No order has the id ord_123.' },
  orderStateConflict: {
    error: 'ORDER_STATE_CONFLICT',
    message: 'Cannot charge back this order: it was refunded already.',
    details: { state: 'refunded' }
  },
  subscriptionStateConflict: {
    error: 'SUBSCRIPTION_STATE_CONFLICT',
    message:
      'Cannot resume: the subscription is canceled since 2026-12-31T00:00:00.000Z. Only a subscription set to cancel at its period end can resume; renew now starts a new one.',
    details: { state: 'canceled' }
  }
})

const A = ERROR_ANSWERS
/** Every management route: developer auth and product ownership. */
export const MANAGEMENT_ERRORS: ErrorAnswer[] = [
  A.validation,
  A.authRequired,
  A.invalidToken,
  A.tokenExpired,
  A.credentialNotAccepted,
  A.productNotFound
]
/** The licensing routes that act on a license (activate, deactivate). */
export const LICENSE_ACTION_ERRORS: ErrorAnswer[] = [
  A.validation,
  A.productCredentialInvalid,
  A.licenseNotFound,
  A.suspended,
  A.expired,
  A.revoked,
  A.trialExpired,
  A.scopeMismatch
]
