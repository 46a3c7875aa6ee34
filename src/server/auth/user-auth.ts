import { decodeJwt } from 'jose'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Customer } from '../../core/customers/customers'
import { DomainError } from '../../core/errors/domain-error'
import { bearerLibraryToken } from './plugin-auth'

/**
 * The signed-in user behind a request (claim): a customer user JWT, or a developer JWT (a
 * developer is a platform user too; their customer account is made on first use).
 */
export async function signedInCustomer(app: FastifyInstance, request: FastifyRequest): Promise<Customer> {
  const token = bearerLibraryToken(request)
  if (!token) throw new DomainError('AUTH_REQUIRED', 'Sign in: send a customer or developer session token as "Authorization: Bearer <token>".')
  let audience: 'customer' | 'developer' = 'developer'
  try {
    const aud = decodeJwt(token).aud
    if (aud === 'customer' || (Array.isArray(aud) && aud.includes('customer'))) audience = 'customer'
  } catch {
    // Not even a JWT: verification below says INVALID_TOKEN.
  }
  const claims = await app.core.sessions.verify(token, audience)
  if (audience === 'customer') {
    const customer = app.core.customers.findByUserId(claims.sub)
    if (!customer) throw new DomainError('INVALID_TOKEN', 'The user this token was issued to no longer exists.')
    return customer
  }
  const developer = app.core.developers.find(claims.sub)
  if (!developer) throw new DomainError('INVALID_TOKEN', 'The developer this token was issued to no longer exists.')
  return app.core.customers.ensureForDeveloper(developer)
}
