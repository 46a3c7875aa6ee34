import { decodeJwt, decodeProtectedHeader } from 'jose'

import { LICENSE_TOKEN_TYPE } from '../licensing/license-tokens'
import type { ExchangeFinding } from './finding'
import type { UpstreamKeyLookup } from './upstream-keys'

export interface TokenContext {
  /** The App ID the request sent (its `aud` must be that), null when it sent none. */
  readonly appId: string | null
  /** The nonce the request sent (echoed in the token), null when it sent none. */
  readonly nonce: string | null
  readonly keyFor: UpstreamKeyLookup
}

/**
 * A license token of an upstream answer, as docs/api.md describes the emulator's own: signed by
 * a key of the upstream's JWKS (TOKEN_SIGNATURE), `aud` = the App ID sent, `iat` <= `exp`, the
 * nonce echoed, `typ: license+jwt` (TOKEN_CLAIMS). Times are never compared with a clock: the
 * upstream's clock is its own.
 */
export async function checkLicenseToken(token: string, at: string, context: TokenContext): Promise<ExchangeFinding[]> {
  const signature = (seen: string): ExchangeFinding => ({
    kind: 'TOKEN_SIGNATURE',
    location: 'token',
    path: at,
    expected: "a JWS that a key of the upstream's /.well-known/jwks.json verifies",
    seen
  })
  const claim = (name: string, expected: string, seen: string, value?: unknown): ExchangeFinding => ({
    kind: 'TOKEN_CLAIMS',
    location: 'token',
    path: `${at}.${name}`,
    expected,
    seen,
    value
  })

  let header: ReturnType<typeof decodeProtectedHeader>
  let payload: ReturnType<typeof decodeJwt>
  try {
    header = decodeProtectedHeader(token)
    payload = decodeJwt(token)
  } catch {
    return [signature('not a compact JWS with a JSON payload')]
  }

  const found: ExchangeFinding[] = []
  const verifier = await context.keyFor(header.kid)
  if (!verifier)
    found.push(
      signature(header.kid === undefined ? 'no kid, and no single key to try' : 'a kid the JWKS does not hold')
    )
  else {
    const end = token.lastIndexOf('.')
    if (!(await verifier(header.alg, token.slice(0, end), Buffer.from(token.slice(end + 1), 'base64url'))))
      found.push(signature('a signature the key of its kid does not verify'))
  }

  if (header.typ !== LICENSE_TOKEN_TYPE)
    found.push(claim('typ', LICENSE_TOKEN_TYPE, header.typ === undefined ? 'absent' : String(header.typ), header.typ))
  if (context.appId !== null) {
    const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud === undefined ? [] : [payload.aud]
    if (!audiences.includes(context.appId))
      found.push(
        claim('aud', 'the App ID the request sent', audiences.length === 0 ? 'absent' : 'another value', payload.aud)
      )
  }
  if (typeof payload.iat === 'number' && typeof payload.exp === 'number' && payload.exp < payload.iat)
    found.push(claim('exp', 'exp at or after iat', 'exp before iat', { iat: payload.iat, exp: payload.exp }))
  if (context.nonce !== null && payload.nonce !== context.nonce)
    found.push(
      claim(
        'nonce',
        'the nonce the request sent',
        payload.nonce === undefined ? 'absent' : 'another value',
        payload.nonce
      )
    )
  return found
}
