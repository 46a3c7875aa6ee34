import { decodeJwt } from 'jose'

import type { AuthEvidence } from '../../core/inspector/types'
import type { AuthKind } from '../../shared/contract/inspector'
import { looksLikeProductCredential } from '../auth/credential-headers'

const LIBRARY_TOKEN_FIELDS = ['token', 'library_token', 'librarytoken', 'download_token', 'downloadtoken']

/**
 * How a request presented itself. Tokens are decoded, never verified: the inspector shows what
 * was sent, and the response status says whether it was accepted. A JWT's `aud` tells the
 * developer, customer (user) and library tokens apart.
 */
export function authKindOf(evidence: AuthEvidence): AuthKind {
  const { headers, redaction } = evidence
  const bearer = bearerOf(headers.authorization)
  // A plugin key sent as Bearer is the licensing routes' compatibility form (docs/api.md section 5).
  if (bearer !== null && looksLikeProductCredential(bearer)) return 'product-credential-bearer'
  const credentialHeaders = [redaction.appIdHeader, ...redaction.credentialHeaders]
  if (credentialHeaders.some((name) => headers[name] !== undefined)) return 'product-credential'
  if (bearer !== null) return jwtKind(bearer) ?? expectedBearerKind(evidence)
  const queryToken = LIBRARY_TOKEN_FIELDS.some((name) =>
    Object.keys(evidence.query).some((key) => key.toLowerCase() === name)
  )
  const body = evidence.body
  const bodyToken =
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    typeof (body as Record<string, unknown>).library_token === 'string'
  if (queryToken || bodyToken) return 'library-token'
  return 'none'
}

function bearerOf(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string') return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value)
  return match?.[1] ?? null
}

function jwtKind(token: string): AuthKind | null {
  let aud: unknown
  try {
    aud = decodeJwt(token).aud
  } catch {
    return null
  }
  const audiences = Array.isArray(aud) ? aud : [aud]
  if (audiences.includes('developer')) return 'developer-jwt'
  if (audiences.includes('customer')) return 'user-jwt'
  if (audiences.includes('library')) return 'library-token'
  return null
}

/** A Bearer value that is no readable JWT: named after what the route expects there. */
function expectedBearerKind(evidence: AuthEvidence): AuthKind {
  switch (evidence.surface) {
    case 'developer-plugin-keys':
    case 'legacy':
      return 'developer-jwt'
    case 'library':
      return evidence.path.startsWith('/api/library/claim') ? 'user-jwt' : 'library-token'
    case 'downloads':
    case 'license-v1':
      return 'library-token'
    default:
      return 'none'
  }
}
