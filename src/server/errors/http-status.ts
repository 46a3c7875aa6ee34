import type { DomainError } from '../../core/errors/domain-error'
import { errorStatus } from '../../shared/contract/error-codes'
import type { TransportError } from './transport-codes'

/** The status of an error the handler answers, from the contract's one table (src/shared/contract/error-codes.ts). */
export function httpStatusOf(error: DomainError | TransportError): number {
  return errorStatus(error.code, error.details.reason)
}
