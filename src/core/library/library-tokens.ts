import { jwtVerify } from 'jose'
import type { Clock } from '../clock/clock'
import type { SigningKeyRing } from '../crypto/signing-keys'
import { createJwtSigner } from '../crypto/jwt-signer'
import { TOKEN_ISSUER } from '../../shared/contract/licensing'
import { DomainError } from '../errors/domain-error'

const AUDIENCE = 'library'

/** `library` for listing the library; `download` for the shorter-lived token that gates delivery. */
export type LibraryTokenScope = 'library' | 'download'

export const LIBRARY_TOKEN_TTL_S = 24 * 60 * 60
export const DOWNLOAD_TOKEN_TTL_S = 60 * 60

export interface LibraryTokens {
  issue(customerId: string, scope?: LibraryTokenScope): Promise<{ token: string; expiresAt: string }>
  /** The customer a library or download token speaks for; LIBRARY_TOKEN_INVALID otherwise. */
  verify(token: string): Promise<{ customerId: string; scope: LibraryTokenScope }>
}

/** Library tokens identify a customer for library access and downloads; signed, so nothing to store. */
export function createLibraryTokens(keys: SigningKeyRing, clock: Clock): LibraryTokens {
  const key = keys.get('session')
  const signJwt = createJwtSigner(key, 'JWT')
  return {
    async issue(customerId, scope = 'library') {
      const nowS = Math.floor(clock.now().getTime() / 1000)
      const exp = nowS + (scope === 'download' ? DOWNLOAD_TOKEN_TTL_S : LIBRARY_TOKEN_TTL_S)
      const token = await signJwt({ scope }, { iss: TOKEN_ISSUER, aud: AUDIENCE, sub: customerId, iat: nowS, exp })
      return { token, expiresAt: new Date(exp * 1000).toISOString() }
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key.publicKey, {
          issuer: TOKEN_ISSUER,
          audience: AUDIENCE,
          algorithms: ['EdDSA'],
          currentDate: clock.now()
        })
        const scope = payload.scope === 'download' ? 'download' : 'library'
        if (typeof payload.sub !== 'string') throw new Error('no subject')
        return { customerId: payload.sub, scope }
      } catch {
        throw new DomainError('LIBRARY_TOKEN_INVALID', 'The library token is missing, not valid or expired.')
      }
    }
  }
}
