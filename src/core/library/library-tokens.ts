import { errors } from 'jose'

import { TOKEN_ISSUER } from '../../shared/contract/licensing'
import type { Clock } from '../clock/clock'
import { createJwtSigner } from '../crypto/jwt-signer'
import { createJwtVerifier } from '../crypto/jwt-verifier'
import type { SigningKeyRing } from '../crypto/signing-keys'
import { DomainError } from '../errors/domain-error'

const AUDIENCE = 'library'

/** `library` for listing the library; `download` for the shorter-lived token that gates delivery. */
export type LibraryTokenScope = 'library' | 'download'

export const LIBRARY_TOKEN_TTL_S = 24 * 60 * 60
export const DOWNLOAD_TOKEN_TTL_S = 60 * 60

/** What a verified library or download token speaks for. */
export interface LibraryGrant {
  customerId: string
  scope: LibraryTokenScope
  /** The developer (vendor) whose products alone it shows; null for the whole library. */
  vendorId: string | null
  expiresAt: string
}

export interface LibraryTokens {
  /** `vendorId` narrows the token to one developer's products (a token minted from a plugin context). */
  issue(
    customerId: string,
    scope?: LibraryTokenScope,
    vendorId?: string | null
  ): Promise<{ token: string; expiresAt: string }>
  /** The grant of a library or download token; LIBRARY_TOKEN_INVALID otherwise (saying when it expired). */
  verify(token: string): Promise<LibraryGrant>
}

/** Library tokens identify a customer for library access and downloads; signed, so nothing to store. */
export function createLibraryTokens(keys: SigningKeyRing, clock: Clock): LibraryTokens {
  const key = keys.get('session')
  const signJwt = createJwtSigner(key, 'JWT')
  const verifyJwt = createJwtVerifier(key.publicKey)
  return {
    async issue(customerId, scope = 'library', vendorId = null) {
      const nowS = Math.floor(clock.now().getTime() / 1000)
      const exp = nowS + (scope === 'download' ? DOWNLOAD_TOKEN_TTL_S : LIBRARY_TOKEN_TTL_S)
      const token = await signJwt(vendorId ? { scope, vendor: vendorId } : { scope }, {
        iss: TOKEN_ISSUER,
        aud: AUDIENCE,
        sub: customerId,
        iat: nowS,
        exp
      })
      return { token, expiresAt: new Date(exp * 1000).toISOString() }
    },
    async verify(token) {
      try {
        const payload = await verifyJwt(token, {
          issuer: TOKEN_ISSUER,
          audience: AUDIENCE,
          algorithms: ['EdDSA'],
          currentDate: clock.now()
        })
        const scope = payload.scope === 'download' ? 'download' : 'library'
        if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') throw new Error('no subject')
        const vendorId = typeof payload.vendor === 'string' ? payload.vendor : null
        return { customerId: payload.sub, scope, vendorId, expiresAt: new Date(payload.exp * 1000).toISOString() }
      } catch (error) {
        if (error instanceof errors.JWTExpired) {
          throw new DomainError(
            'LIBRARY_TOKEN_INVALID',
            `The ${error.payload.scope === 'download' ? 'download' : 'library'} token has expired.`
          )
        }
        throw new DomainError('LIBRARY_TOKEN_INVALID', 'The library token is missing, not valid or expired.')
      }
    }
  }
}
