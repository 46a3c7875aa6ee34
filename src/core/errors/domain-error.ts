import type { DomainErrorCode } from '../../shared/contract/error-codes'

/** What gets a product's credential going again: the management actions to take, which the server turns into its routes. */
export interface CredentialRecovery {
  productId: string
  actions: readonly ('create' | 'ensure' | 'rotate-key' | 'rotate-secret')[]
  /** The message ends by naming the actions' routes (the server words it). */
  named: boolean
}

export interface DomainErrorOptions {
  /** Extra top-level keys of the error body (`recovery`, `replacement`, ...). */
  details?: Record<string, unknown>
  /** Keys that help a developer debug but that a production service would hide (`--strict`). */
  debugDetails?: Record<string, unknown>
  /** The message a production service would give instead: answered in strict mode, which hides debug details. */
  productionMessage?: string
  recovery?: CredentialRecovery
}

/**
 * A failure the domain reports, by contract code (docs/api.md section 1). The codes and their
 * HTTP statuses are one table in src/shared/contract/error-codes.ts; core knows nothing of HTTP.
 */
export class DomainError extends Error {
  readonly code: DomainErrorCode
  readonly details: Record<string, unknown>
  readonly debugDetails: Record<string, unknown>
  readonly productionMessage: string
  readonly recovery: CredentialRecovery | null

  constructor(code: DomainErrorCode, message: string, options: DomainErrorOptions = {}) {
    // An expected outcome (a wrong key, an expired license) answered in the contract's shape and
    // never logged with a stack: capturing one cost about 15 us per refused request (bench profile).
    const stackTraceLimit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(message)
    Error.stackTraceLimit = stackTraceLimit
    this.name = 'DomainError'
    this.code = code
    this.details = options.details ?? {}
    this.debugDetails = options.debugDetails ?? {}
    this.productionMessage = options.productionMessage ?? message
    this.recovery = options.recovery ?? null
  }
}

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof DomainError
}
