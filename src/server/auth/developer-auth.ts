import type { FastifyRequest } from 'fastify'

import type { DeveloperActor } from '../../core/accounts/actor'
import { DomainError } from '../../core/errors/domain-error'

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified developer behind a request that took a developer session token (set by token-auth). */
    developer: DeveloperActor | null
  }
}

/** The developer of a request that passed token-auth with a developer session token. */
export function actingDeveloper(request: FastifyRequest): DeveloperActor {
  if (!request.developer) throw new DomainError('AUTH_REQUIRED', 'This endpoint needs a developer session token.')
  return request.developer
}
