import { decodeJwt, decodeProtectedHeader } from 'jose'

import { sameSecret } from '../../core/crypto/digest'
import type { TokenKind } from '../../shared/contract/token-kinds'
import { looksLikeProductCredential } from './credential-headers'

/** What a presented value looks like: a token kind, a license token (no request credential), or nothing known. */
export type RecognisedKind = TokenKind | 'licenseToken' | null

/**
 * The kind a value looks like, read without verifying it: only to say "this is a customer
 * session token" when a route takes another kind. Verification decides whether it is accepted.
 */
export function recogniseTokenKind(value: string, adminToken: string): RecognisedKind {
  if (looksLikeProductCredential(value)) return 'productCredential'
  if (sameSecret(value, adminToken)) return 'adminToken'
  try {
    if (decodeProtectedHeader(value).typ === 'license+jwt') return 'licenseToken'
    const payload = decodeJwt(value)
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud]
    if (audiences.includes('developer')) return 'developerJwt'
    if (audiences.includes('customer')) return 'customerJwt'
    if (audiences.includes('library')) {
      if (payload.scope === 'download') return 'downloadToken'
      return typeof payload.vendor === 'string' ? 'vendorLibraryToken' : 'libraryToken'
    }
  } catch {
    // Not a JWT at all.
  }
  return null
}
