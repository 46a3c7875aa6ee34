/**
 * Error codes the server answers for what happens around the domain: the HTTP exchange itself,
 * the framework's limits, injected faults and defects. With the domain's codes
 * (HTTP_STATUS_BY_CODE) they are every `error` the server can answer; the README's Errors
 * section and the OpenAPI document list them all (a test keeps it so).
 */
export const TRANSPORT_STATUS_BY_CODE = {
  MALFORMED_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  METHOD_NOT_ALLOWED: 405,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  HEADERS_TOO_LARGE: 431,
  RATE_LIMITED: 429,
  // A fault rule's status (503 by default); any 4xx or 5xx the rule names.
  FAULT_INJECTED: 503,
  INTERNAL: 500
} as const

export type TransportErrorCode = keyof typeof TRANSPORT_STATUS_BY_CODE

/** A failure of the exchange itself, raised by the server's own hooks; the error handler answers it. */
export class TransportError extends Error {
  readonly code: TransportErrorCode
  constructor(code: TransportErrorCode, message: string) {
    super(message)
    this.code = code
  }
}
