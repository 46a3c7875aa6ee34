import type { TransportErrorCode } from '../../shared/contract/error-codes'

/**
 * A failure of the exchange itself (a Host or Origin refused, a byte range outside the file, a
 * URL too long), raised by the server's own hooks and routes; the error handler answers it.
 * Its code and status are in the contract's table (TRANSPORT_ERROR_STATUS).
 */
export class TransportError extends Error {
  readonly code: TransportErrorCode
  readonly details: Record<string, unknown> = {}
  constructor(code: TransportErrorCode, message: string) {
    super(message)
    this.code = code
  }
}
