import { errors } from 'jose'
import type { JWTPayload } from 'jose'

import { TOKEN_ISSUER } from '../../shared/contract/licensing'
import type { Clock } from '../clock/clock'
import { createJwtSigner } from '../crypto/jwt-signer'
import { createJwtVerifier } from '../crypto/jwt-verifier'
import type { SigningKeyRing } from '../crypto/signing-keys'
import { DomainError } from '../errors/domain-error'

/** Session lifetime when the caller does not choose one: a working day. */
export const DEFAULT_SESSION_TTL_S = 12 * 60 * 60

/** Who a session token speaks for: a developer (management API) or a signed-in customer. */
export type SessionAudience = 'developer' | 'customer'

export interface IssuedToken {
  token: string
  expiresAt: string
}

export interface SessionTokens {
  issue(input: {
    audience: SessionAudience
    subject: string
    ttlS?: number | undefined
    claims?: Record<string, unknown>
  }): Promise<IssuedToken>
  /** Verifies signature, issuer, audience and expiry against the emulator clock. */
  verify(token: string, audience: SessionAudience): Promise<JWTPayload & { sub: string }>
}

export function createSessionTokens(keys: SigningKeyRing, clock: Clock): SessionTokens {
  const key = keys.get('session')
  const signJwt = createJwtSigner(key, 'JWT')
  const verifyJwt = createJwtVerifier(key.publicKey)
  return {
    async issue({ audience, subject, ttlS = DEFAULT_SESSION_TTL_S, claims = {} }) {
      const nowS = Math.floor(clock.now().getTime() / 1000)
      const exp = nowS + ttlS
      const token = await signJwt(claims, { iss: TOKEN_ISSUER, aud: audience, sub: subject, iat: nowS, exp })
      return { token, expiresAt: new Date(exp * 1000).toISOString() }
    },
    async verify(token, audience) {
      try {
        const payload = await verifyJwt(token, {
          issuer: TOKEN_ISSUER,
          audience,
          algorithms: ['EdDSA'],
          currentDate: clock.now()
        })
        if (typeof payload.sub !== 'string') throw new DomainError('INVALID_TOKEN', 'The token names no subject.')
        return payload as JWTPayload & { sub: string }
      } catch (error) {
        if (error instanceof DomainError) throw error
        if (error instanceof errors.JWTExpired) {
          throw new DomainError('TOKEN_EXPIRED', 'The session token has expired; mint a new one.')
        }
        throw new DomainError('INVALID_TOKEN', describeInvalidToken(error, audience))
      }
    }
  }
}

function describeInvalidToken(error: unknown, audience: SessionAudience): string {
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return `The token is not a ${audience} session token.`
    if (error.claim === 'iss') return 'The token was not issued by this emulator.'
    return `The token's "${error.claim}" claim is not acceptable.`
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The token is not signed with EdDSA.'
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The token signature does not verify.'
  return 'The token is not a well-formed signed JWT.'
}
