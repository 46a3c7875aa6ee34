/**
 * The one error type of the renderer's HTTP clients. It carries the contract's error body
 * (docs/api.md section 1): `error` (UPPER_SNAKE code), `message` (a sentence for a person),
 * `reason` when the server gives one, and the other detail keys as they came.
 */
export class ApiError extends Error {
  /** HTTP status; 0 when no response arrived. */
  readonly status: number
  /** The contract's `error` code (`NETWORK_ERROR` / `BAD_RESPONSE` when the server gave none). */
  readonly code: string
  readonly reason: string | null
  /** Every other top-level key of the error body (`recovery`, `details`, `retryAfter`...). */
  readonly details: Record<string, unknown>

  constructor(init: {
    status: number
    code: string
    message: string
    reason?: string | null
    details?: Record<string, unknown>
  }) {
    super(init.message)
    this.name = 'ApiError'
    this.status = init.status
    this.code = init.code
    this.reason = init.reason ?? null
    this.details = init.details ?? {}
  }

  /** From a response body that is, or should have been, the contract's error envelope. */
  static fromBody(status: number, body: unknown): ApiError {
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const { ok: _ok, error, message, reason, ...details } = body as Record<string, unknown>
      if (typeof error === 'string') {
        return new ApiError({
          status,
          code: error,
          message: typeof message === 'string' && message !== '' ? message : `The server answered ${status} ${error}.`,
          reason: typeof reason === 'string' ? reason : null,
          details
        })
      }
    }
    return new ApiError({
      status,
      code: 'BAD_RESPONSE',
      message: `The server answered ${status} without the usual error body.`
    })
  }

  static network(cause: unknown): ApiError {
    const detail = cause instanceof Error && cause.message ? ` (${cause.message})` : ''
    return new ApiError({
      status: 0,
      code: 'NETWORK_ERROR',
      message: `The emulator did not answer${detail}. Is it still running?`
    })
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError
}

/** Any thrown value as an ApiError, so every screen shows errors the same way. */
export function toApiError(value: unknown): ApiError {
  if (value instanceof ApiError) return value
  if (value instanceof Error) return new ApiError({ status: 0, code: 'CLIENT_ERROR', message: value.message })
  return new ApiError({ status: 0, code: 'CLIENT_ERROR', message: String(value) })
}
