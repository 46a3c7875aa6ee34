/**
 * How each section of a scenario document maps onto a table: one description serves the
 * export, the import, the reference checks and the JSON Schema, so they cannot drift apart.
 * Sections are listed parents first, the order rows are written in.
 */
import { DEVELOPER_ROLES } from '../../shared/contract/accounts'
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, AUDIT_OUTCOMES, CONNECTION_OUTCOMES } from '../../shared/contract/audit'
import { FILE_PLATFORMS } from '../../shared/contract/downloads'
import { FAULT_KINDS } from '../../shared/contract/faults'
import { AUTH_KINDS, REQUEST_SOURCES, SURFACES } from '../../shared/contract/inspector'
import { LICENSE_KINDS, LICENSE_STATUSES } from '../../shared/contract/licensing'
import { BILLING_PERIODS, SUBSCRIPTION_STATUSES } from '../../shared/contract/subscriptions'
import { SEALED_VALUE_PATTERN } from '../crypto/secret-box'

/** `number`: any finite number; `json`: any JSON value, kept as text in its column. */
export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'json'

export interface ColumnSpec {
  field: string
  column: string
  type: ColumnType
  /** May be null; may be left out on import (then null). */
  nullable?: boolean
  /** On import, the value used when the field is left out. */
  default?: string | number | boolean
  enum?: readonly string[]
  /** The section whose `id` this field must name. */
  ref?: SectionName
  /** An RFC 3339 date-time with a time and an offset (`2026-12-31T00:00:00Z`). */
  dateTime?: true
  /** The largest integer accepted (integers are never negative). */
  maximum?: number
  /** A pattern a string must match, with what it means. */
  pattern?: { regex: string; description: string }
}

/** The largest count or amount an integer field takes (SQLite and JavaScript both hold it exactly). */
export const MAX_INTEGER = 2_147_483_647

export type SectionName =
  | 'developers'
  | 'products'
  | 'credentials'
  | 'customers'
  | 'marketingPreferences'
  | 'orders'
  | 'orderItems'
  | 'subscriptions'
  | 'entitlements'
  | 'licenses'
  | 'activations'
  | 'files'
  | 'credentialAudit'
  | 'connectionStatuses'
  | 'requests'

export interface SectionSpec {
  section: SectionName
  table: string
  /** Export order: stable, so export -> import -> export is byte-identical. */
  orderBy: string
  /** The field other sections reference; absent for marketingPreferences (keyed by customer). */
  idField?: string
  columns: readonly ColumnSpec[]
  /**
   * Exported only when asked for (`?includeRequests=1`): the request log, which lives in a file of
   * its own (the request log's, not the store's, reads and writes it).
   */
  onRequest?: true
}

const id: ColumnSpec = { field: 'id', column: 'id', type: 'string' }
const createdAt: ColumnSpec = { field: 'createdAt', column: 'created_at', type: 'string', dateTime: true }
const str = (field: string, column: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  field,
  column,
  type: 'string',
  ...extra
})
const opt = (field: string, column: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  field,
  column,
  type: 'string',
  nullable: true,
  ...extra
})
const int = (field: string, column: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  field,
  column,
  type: 'integer',
  ...extra
})
const at = (field: string, column: string): ColumnSpec => ({ field, column, type: 'string', dateTime: true })
const optAt = (field: string, column: string): ColumnSpec => ({
  field,
  column,
  type: 'string',
  nullable: true,
  dateTime: true
})
const num = (field: string, column: string): ColumnSpec => ({ field, column, type: 'number' })
const json = (field: string, column: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  field,
  column,
  type: 'json',
  ...extra
})
const bool = (field: string, column: string, fallback: boolean): ColumnSpec => ({
  field,
  column,
  type: 'boolean',
  default: fallback
})

export const SECTIONS: readonly SectionSpec[] = [
  {
    section: 'developers',
    table: 'developers',
    orderBy: 'created_at, id',
    idField: 'id',
    columns: [
      id,
      str('email', 'email'),
      opt('name', 'name'),
      str('role', 'role', { enum: DEVELOPER_ROLES, default: 'developer' }),
      createdAt
    ]
  },
  {
    section: 'products',
    table: 'products',
    orderBy: 'created_at, id',
    idField: 'id',
    columns: [
      id,
      str('developerId', 'developer_id', { ref: 'developers' }),
      str('name', 'name'),
      str('appId', 'app_id'),
      opt('storefrontSlug', 'storefront_slug'),
      opt('supportEmail', 'support_email'),
      createdAt
    ]
  },
  {
    section: 'credentials',
    table: 'product_credentials',
    orderBy: 'seq',
    idField: 'id',
    columns: [
      id,
      int('seq', 'seq'),
      str('productId', 'product_id', { ref: 'products' }),
      str('appId', 'app_id'),
      str('keyHash', 'key_hash'),
      str('secretHash', 'secret_hash'),
      str('keyPreview', 'key_preview'),
      str('secretPreview', 'secret_preview'),
      opt('sealedMaterial', 'sealed_material'),
      opt('sealedKeyId', 'sealed_key_id', {
        pattern: {
          regex: '^rk_[0-9a-f]{16}$',
          description:
            'The id of the runtime key that sealed sealedMaterial (never the key); left out, the import records the current key when it opens the value.'
        }
      }),
      str('status', 'status', { enum: ['active', 'revoked'] }),
      createdAt,
      opt('createdBy', 'created_by'),
      optAt('lastUsedAt', 'last_used_at'),
      opt('rotatedFromId', 'rotated_from_id', { ref: 'credentials' }),
      opt('replacedById', 'replaced_by_id', { ref: 'credentials' }),
      optAt('revokedAt', 'revoked_at'),
      opt('revokedBy', 'revoked_by'),
      opt('revokedReason', 'revoked_reason'),
      opt('revocationCause', 'revocation_cause', { enum: ['revoke', 'rotate-key', 'rotate-secret'] }),
      optAt('secretShownOnceAt', 'secret_shown_once_at'),
      int('revealCount', 'reveal_count', { default: 0 }),
      optAt('lastRevealedAt', 'last_revealed_at'),
      opt('lastRevealedBy', 'last_revealed_by')
    ]
  },
  {
    section: 'customers',
    table: 'customers',
    orderBy: 'created_at, id',
    idField: 'id',
    columns: [
      id,
      str('userId', 'user_id'),
      str('email', 'email'),
      opt('name', 'name'),
      opt('country', 'country'),
      opt('locale', 'locale'),
      opt('developerId', 'developer_id', { ref: 'developers' }),
      createdAt
    ]
  },
  {
    section: 'marketingPreferences',
    table: 'marketing_preferences',
    orderBy: 'customer_id',
    columns: [
      str('customerId', 'customer_id', { ref: 'customers' }),
      bool('newsletter', 'newsletter', false),
      bool('productUpdates', 'product_updates', true),
      at('updatedAt', 'updated_at')
    ]
  },
  {
    section: 'orders',
    table: 'orders',
    orderBy: 'created_at, id',
    idField: 'id',
    columns: [
      id,
      opt('customerId', 'customer_id', { ref: 'customers' }),
      str('channel', 'channel', { enum: ['direct', 'reseller'] }),
      opt('reseller', 'reseller'),
      opt('storefrontSlug', 'storefront_slug'),
      str('status', 'status', { enum: ['paid', 'refunded', 'chargeback'], default: 'paid' }),
      str('currency', 'currency', { default: 'USD' }),
      int('totalCents', 'total_cents'),
      createdAt,
      optAt('reversedAt', 'reversed_at')
    ]
  },
  {
    section: 'orderItems',
    table: 'order_items',
    orderBy: 'order_id, id',
    idField: 'id',
    columns: [
      id,
      str('orderId', 'order_id', { ref: 'orders' }),
      str('productId', 'product_id', { ref: 'products' }),
      str('kind', 'kind', { enum: LICENSE_KINDS }),
      int('unitPriceCents', 'unit_price_cents'),
      opt('claimTokenHash', 'claim_token_hash'),
      opt('claimedByCustomerId', 'claimed_by_customer_id', { ref: 'customers' }),
      optAt('claimedAt', 'claimed_at'),
      opt('sealedClaimToken', 'sealed_claim_token', {
        pattern: {
          regex: SEALED_VALUE_PATTERN,
          description:
            'The claim token sealed under the runtime key of the emulator that exported it (ciphertext, never the token): the pending reseller order lists its claim link again where that key opens it.'
        }
      })
    ]
  },
  {
    section: 'subscriptions',
    table: 'subscriptions',
    orderBy: 'created_at, id',
    idField: 'id',
    columns: [
      id,
      str('customerId', 'customer_id', { ref: 'customers' }),
      str('productId', 'product_id', { ref: 'products' }),
      str('plan', 'plan', { enum: BILLING_PERIODS }),
      str('status', 'status', { enum: SUBSCRIPTION_STATUSES }),
      at('currentPeriodEnd', 'current_period_end'),
      bool('cancelAtPeriodEnd', 'cancel_at_period_end', false),
      optAt('canceledAt', 'canceled_at'),
      optAt('paymentFailedAt', 'payment_failed_at'),
      createdAt
    ]
  },
  {
    section: 'entitlements',
    table: 'entitlements',
    orderBy: 'created_at, id',
    idField: 'id',
    columns: [
      id,
      str('customerId', 'customer_id', { ref: 'customers' }),
      str('productId', 'product_id', { ref: 'products' }),
      opt('orderItemId', 'order_item_id', { ref: 'orderItems' }),
      str('source', 'source', { enum: ['purchase', 'subscription', 'trial', 'reseller_claim'] }),
      str('status', 'status', { enum: ['active', 'revoked'], default: 'active' }),
      createdAt
    ]
  },
  {
    section: 'licenses',
    table: 'licenses',
    orderBy: 'created_at, id',
    idField: 'id',
    columns: [
      id,
      str('key', 'license_key'),
      str('customerId', 'customer_id', { ref: 'customers' }),
      str('productId', 'product_id', { ref: 'products' }),
      opt('entitlementId', 'entitlement_id', { ref: 'entitlements' }),
      opt('subscriptionId', 'subscription_id', { ref: 'subscriptions' }),
      str('kind', 'kind', { enum: LICENSE_KINDS, default: 'perpetual' }),
      str('status', 'status', { enum: LICENSE_STATUSES, default: 'active' }),
      optAt('expiresAt', 'expires_at'),
      int('maxActivations', 'max_activations', { default: 2 }),
      createdAt
    ]
  },
  {
    section: 'activations',
    table: 'activations',
    orderBy: 'first_seen_at, id',
    idField: 'id',
    columns: [
      id,
      str('licenseId', 'license_id', { ref: 'licenses' }),
      str('instanceId', 'instance_id'),
      opt('instanceName', 'instance_name'),
      opt('platform', 'platform'),
      opt('appVersion', 'app_version'),
      at('firstSeenAt', 'first_seen_at'),
      at('lastSeenAt', 'last_seen_at'),
      optAt('deactivatedAt', 'deactivated_at')
    ]
  },
  {
    section: 'files',
    table: 'product_files',
    orderBy: 'created_at, id',
    idField: 'id',
    columns: [
      id,
      str('productId', 'product_id', { ref: 'products' }),
      str('version', 'version'),
      str('platform', 'platform', { enum: FILE_PLATFORMS }),
      str('filename', 'filename'),
      int('sizeBytes', 'size_bytes'),
      createdAt
    ]
  },
  {
    section: 'credentialAudit',
    table: 'credential_audit',
    orderBy: 'id',
    columns: [
      int('id', 'id'),
      str('productId', 'product_id', { ref: 'products' }),
      // Not a reference: a failed attempt records the id it was shown, which may name no credential.
      opt('credentialId', 'credential_id'),
      str('action', 'action', { enum: AUDIT_ACTIONS }),
      str('outcome', 'outcome', { enum: AUDIT_OUTCOMES }),
      // The answers' vocabulary (src/shared/contract/audit.ts): a free string here once imported and broke the audit read.
      str('actorKind', 'actor_kind', { enum: AUDIT_ACTOR_KINDS }),
      opt('actorId', 'actor_id'),
      opt('reason', 'reason'),
      json('metadata', 'metadata', { nullable: true }),
      at('at', 'at')
    ]
  },
  {
    section: 'connectionStatuses',
    table: 'connection_status',
    orderBy: 'product_id',
    columns: [
      str('productId', 'product_id', { ref: 'products' }),
      str('lastStatus', 'last_status', { enum: CONNECTION_OUTCOMES }),
      opt('lastReason', 'last_reason'),
      at('lastAttemptAt', 'last_attempt_at'),
      optAt('lastVerifiedAt', 'last_verified_at'),
      opt('lastCredentialId', 'last_credential_id'),
      int('attemptCount', 'attempt_count'),
      int('successCount', 'success_count'),
      int('failureCount', 'failure_count')
    ]
  },
  {
    section: 'requests',
    table: 'request_log',
    orderBy: 'id',
    onRequest: true,
    columns: [
      int('id', 'id'),
      at('at', 'at'),
      str('surface', 'surface', { enum: SURFACES }),
      str('method', 'method'),
      str('path', 'path'),
      int('status', 'status'),
      num('durationMs', 'duration_ms'),
      str('authKind', 'auth_kind', { enum: AUTH_KINDS }),
      // Not a reference: the log outlives the products it names.
      opt('productId', 'product_id'),
      str('source', 'source', { enum: REQUEST_SOURCES, default: 'client' }),
      opt('errorCode', 'error_code'),
      // Not references: the rule may have been changed or removed since it fired.
      opt('faultRuleId', 'fault_rule_id'),
      opt('faultKind', 'fault_kind', { enum: FAULT_KINDS }),
      opt('faultLabel', 'fault_label'),
      json('request', 'request_json'),
      json('response', 'response_json')
    ]
  }
]

/** Tables that hold emulator data and that reset empties (children first). Keys and settings stay. */
export const DATA_TABLES: readonly string[] = [
  'credential_audit',
  'connection_status',
  'activations',
  'licenses',
  'entitlements',
  'subscriptions',
  'order_items',
  'orders',
  'marketing_preferences',
  'customers',
  'product_files',
  'product_credentials',
  'products',
  'storefronts',
  'developers'
]
