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
  let audiences: string[] = []
  try {
    const aud = decodeJwt(token).aud
    audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : []
    if (audiences.includes('customer')) audience = 'customer'
  } catch {
    // Not even a JWT: verification below says INVALID_TOKEN.
  }
  if (audiences.length > 0 && !audiences.includes('customer') && !audiences.includes('developer')) {
    // A library token (or another emulator token) here is a likely mix-up: name what the route takes.
    const kind = audiences.includes('library') ? 'a library token' : 'not a session token'
    throw new DomainError('INVALID_TOKEN', `This route takes a signed-in customer or developer session token as Bearer; this is ${kind}.`)
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
