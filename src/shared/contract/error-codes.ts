import type { LicenseFailureCode } from './licensing'

/**
 * Every `error` code the server answers and its HTTP status (docs/api.md sections 1 and 5): the
 * one table the error handler, the OpenAPI document's error examples and the README's Errors
 * section are built from.
 */
export const DOMAIN_ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  AUTH_REQUIRED: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  PRODUCT_CREDENTIAL_NOT_ACCEPTED: 403,
  PRODUCT_NOT_FOUND: 404,
  PRODUCT_CREDENTIAL_NOT_FOUND: 404,
  ACTIVE_CREDENTIAL_EXISTS: 409,
  PRODUCT_CREDENTIAL_SECRET_UNAVAILABLE: 409,
  LEGACY_PLUGIN_KEYS_RETIRED: 410,
  PLUGIN_CONNECTION_FAILED: 401,
  DEVELOPER_NOT_FOUND: 404,
  DEVELOPER_EXISTS: 409,
  CUSTOMER_NOT_FOUND: 404,
  CUSTOMER_EXISTS: 409,
  LICENSE_NOT_FOUND: 404,
  SUBSCRIPTION_NOT_FOUND: 404,
  SUBSCRIPTION_STATE_CONFLICT: 409,
  ORDER_NOT_FOUND: 404,
  ORDER_STATE_CONFLICT: 409,
  PRODUCT_CREDENTIAL_INVALID: 401,
  LIBRARY_TOKEN_INVALID: 401,
  LIBRARY_CLAIM_FAILED: 400,
  ENTITLEMENT_REQUIRED: 403,
  FILE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  SUSPENDED: 403,
  EXPIRED: 403,
  REVOKED: 403,
  NOT_ACTIVATED: 404,
  PRODUCT_SCOPE_MISMATCH: 403,
  TOO_MANY_ACTIVATIONS: 409,
  TRIAL_EXPIRED: 403,
  PRESET_NOT_FOUND: 404,
  FAULT_RULE_NOT_FOUND: 404,
  // Storage faults (docs/api.md section 1): the disk is full, the file cannot be written, another
  // process holds the write lock past the busy timeout (with Retry-After).
  STORAGE_FULL: 507,
  STORAGE_READ_ONLY: 503,
  STORAGE_BUSY: 503,
  RECORDING_NOT_FOUND: 404,
  NO_RECORDED_MATCH: 404
} as const satisfies Record<string, number> & Record<LicenseFailureCode, number>

/**
 * What happens around the domain: the HTTP exchange itself (a Host or Origin the control plane
 * refuses, a byte range outside the file), the framework's limits, injected faults and defects.
 */
export const TRANSPORT_ERROR_STATUS = {
  MALFORMED_REQUEST: 400,
  HOST_NOT_ALLOWED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  // A fault rule's status (503 by default); any 4xx or 5xx the rule names.
  FAULT_INJECTED: 503,
  INTERNAL: 500,
  // Forwarding to the upstream (docs/upstream.md): it could not be reached (`reason` REFUSED, DNS,
  // TLS or RESET), it did not answer in time, or the request already went through this emulator.
  UPSTREAM_UNREACHABLE: 502,
  UPSTREAM_TIMEOUT: 504,
  UPSTREAM_LOOP: 508
} as const

/** Where the contract splits one code by its `reason` (docs/api.md section 4: a claim already taken is a conflict). */
const STATUS_BY_REASON: Partial<Record<ErrorCode, Readonly<Record<string, number>>>> = {
  LIBRARY_CLAIM_FAILED: { ALREADY_CLAIMED: 409 }
}

export type DomainErrorCode = keyof typeof DOMAIN_ERROR_STATUS
export type TransportErrorCode = keyof typeof TRANSPORT_ERROR_STATUS
export type ErrorCode = DomainErrorCode | TransportErrorCode

const STATUS: Readonly<Record<ErrorCode, number>> = { ...DOMAIN_ERROR_STATUS, ...TRANSPORT_ERROR_STATUS }

/** Every code the server can answer, sorted. */
export const ERROR_CODES: readonly ErrorCode[] = (Object.keys(STATUS) as ErrorCode[]).sort()

/** The HTTP status of an error answer: its code's, or its reason's where the contract splits the code. */
export function errorStatus(code: ErrorCode, reason?: unknown): number {
  const byReason = typeof reason === 'string' ? STATUS_BY_REASON[code]?.[reason] : undefined
  return byReason ?? STATUS[code]
}
