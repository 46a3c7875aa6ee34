import { jwtVerify } from 'jose'
import type { CryptoKey, JWTPayload, JWTVerifyOptions } from 'jose'

/** Tokens remembered as verified; the oldest is forgotten first. */
export const VERIFIED_TOKENS_KEPT = 256

export interface JwtVerifyRequest extends JWTVerifyOptions {
  audience: string
  /** The emulator clock's now: expiry is judged against it on every call, remembered or not. */
  currentDate: Date
}

/**
 * jose's `jwtVerify` for the emulator's own session and library tokens, remembering the tokens it
 * verified. A plugin or a screen presents the same bearer token call after call, and jose checks
 * its signature through WebCrypto at about 400 us a call. A remembered token is answered from
 * memory only while its time claims still hold at the given now (the emulator clock moves);
 * otherwise jose judges it again and throws its own error (expired, not yet valid), so callers see
 * one behaviour. The issuer, audience and algorithms never change for a caller's tokens, and the
 * signing key is this verifier's: what was verified once stays verified.
 */
export function createJwtVerifier(
  publicKey: CryptoKey,
  kept: number = VERIFIED_TOKENS_KEPT
): (token: string, request: JwtVerifyRequest) => Promise<Readonly<JWTPayload>> {
  const verified = new Map<string, Readonly<JWTPayload>>()
  return async (token, request) => {
    const cacheKey = `${request.audience} ${token}`
    const known = verified.get(cacheKey)
    if (known && inTime(known, Math.floor(request.currentDate.getTime() / 1000))) return known
    verified.delete(cacheKey)
    const { payload } = await jwtVerify(token, publicKey, request)
    if (verified.size >= kept) verified.delete(verified.keys().next().value as string)
    const frozen = Object.freeze(payload)
    verified.set(cacheKey, frozen)
    return frozen
  }
}

/** jose's rule with no clock tolerance: expired at `exp`, valid from `nbf`. */
function inTime(payload: JWTPayload, nowS: number): boolean {
  return (payload.exp === undefined || payload.exp > nowS) && (payload.nbf === undefined || payload.nbf <= nowS)
}
