import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import type { DeveloperActor } from '../../core/accounts/actor'
import { DomainError } from '../../core/errors/domain-error'
import { bearerToken, presentsProductCredential } from './credential-headers'

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified developer behind a management request (set by `authenticateDeveloper`). */
    developer: DeveloperActor | null
  }
  interface FastifyInstance {
    /** onRequest hook for the management API: developer JWT only, product credentials refused. */
    authenticateDeveloper(request: FastifyRequest): Promise<void>
  }
}

export const developerAuth = fp(
  async (app) => {
    app.decorateRequest('developer', null)
    app.decorate('authenticateDeveloper', async function authenticateDeveloper(request: FastifyRequest) {
      // Checked first: a plugin key sent as Bearer must say "wrong kind of credential", not "no token".
      if (presentsProductCredential(request.headers, app.settings.headerPrefix)) {
        throw new DomainError(
          'PRODUCT_CREDENTIAL_NOT_ACCEPTED',
          'Product credentials (App ID, plugin key, plugin secret) are for plugins and the licensing API; the management API needs a developer session token.'
        )
      }
      const token = bearerToken(request.headers)
      if (!token) {
        // "Bearer a b" is a token sent badly, not no token: garbage is INVALID_TOKEN (docs/api.md section 1).
        if (/^Bearer\s+\S/i.test(request.headers.authorization ?? '')) {
          throw new DomainError('INVALID_TOKEN', 'The Authorization header must be "Bearer <token>" with a single token.')
        }
        throw new DomainError('AUTH_REQUIRED', 'Send a developer session token as "Authorization: Bearer <token>".')
      }
      const claims = await app.core.sessions.verify(token, 'developer')
      const developer = app.core.developers.find(claims.sub)
      if (!developer) throw new DomainError('INVALID_TOKEN', 'The developer this token was issued to no longer exists.')
      // The role comes from the database, not the token, so a demotion takes effect at once.
      request.developer = { kind: 'developer', developerId: developer.id, role: developer.role }
    })
  },
  { name: 'developer-auth', dependencies: ['emulator-context'] }
)

/** The developer of a request that passed `authenticateDeveloper`. */
export function actingDeveloper(request: FastifyRequest): DeveloperActor {
  if (!request.developer) throw new DomainError('AUTH_REQUIRED', 'This endpoint needs a developer session token.')
  return request.developer
}
