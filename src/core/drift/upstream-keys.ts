import type { JWK } from 'jose'

import { jwsVerifierOf } from './jws-verifier'
import type { JwsVerifier } from './jws-verifier'

/** The upstream's license-token keys by `kid`: a verifier for the key a token names, or null. */
export type UpstreamKeyLookup = (kid: string | undefined) => Promise<JwsVerifier | null>

/** An unknown `kid` refetches the key set, but not more often than this (a forged kid cannot hammer the upstream). */
const MIN_REFETCH_MS = 5_000

/**
 * The upstream's JWKS (its own /.well-known/jwks.json, fetched by `fetchJwks` through the same
 * connection as forwarded calls), cached by `kid` and fetched again when a token names a kid the
 * cache does not hold. A token without a kid is checked against the one key a single-key set has.
 */
export function upstreamKeys(fetchJwks: () => Promise<unknown>, now: () => number = Date.now): UpstreamKeyLookup {
  let keys = new Map<string, JWK>()
  let fetchedAt = Number.NEGATIVE_INFINITY
  let inFlight: Promise<void> | null = null
  const imported = new Map<string, JwsVerifier>()

  const refetch = (): Promise<void> => {
    inFlight ??= (async () => {
      try {
        const set = await fetchJwks()
        const list = set !== null && typeof set === 'object' ? (set as { keys?: unknown }).keys : undefined
        const next = new Map<string, JWK>()
        if (Array.isArray(list)) {
          list.forEach((key: unknown, index) => {
            if (key === null || typeof key !== 'object') return
            const jwk = key as JWK
            next.set(typeof jwk.kid === 'string' ? jwk.kid : `#${index}`, jwk)
          })
        }
        keys = next
        imported.clear()
      } catch {
        // An unreachable JWKS leaves the keys known so far: the token then fails its signature check.
      } finally {
        fetchedAt = now()
        inFlight = null
      }
    })()
    return inFlight
  }

  const find = (kid: string | undefined): [string, JWK] | null => {
    if (kid !== undefined) {
      const jwk = keys.get(kid)
      return jwk ? [kid, jwk] : null
    }
    const [only] = keys.entries()
    return keys.size === 1 && only ? only : null
  }

  return async (kid) => {
    let found = find(kid)
    if (!found && now() - fetchedAt >= MIN_REFETCH_MS) {
      await refetch()
      found = find(kid)
    } else if (!found && inFlight) {
      await inFlight
      found = find(kid)
    }
    if (!found) return null
    const [id, jwk] = found
    let verifier = imported.get(id)
    if (!verifier) {
      try {
        verifier = jwsVerifierOf(jwk)
      } catch {
        // Not a public key node:crypto can read: a token naming it fails its signature check.
        return null
      }
      imported.set(id, verifier)
    }
    return verifier
  }
}
