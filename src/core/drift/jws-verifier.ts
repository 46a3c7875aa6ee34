import { constants, createPublicKey, verify } from 'node:crypto'
import type { KeyObject, VerifyKeyObjectInput, VerifyPublicKeyInput } from 'node:crypto'

/** Checks one compact JWS's signature: true only when the key verifies it for the header's `alg`. */
export type JwsVerifier = (alg: string | undefined, signingInput: string, signature: Buffer) => Promise<boolean>

interface AlgorithmParameters {
  /** The digest node:crypto hashes with; null for EdDSA, which hashes inside the scheme. */
  digest: string | null
  keyType: 'ed25519' | 'ed448' | 'ec' | 'rsa'
  /** The curve an EC key must be on (node's name). */
  curve?: string
  pss?: true
}

// The asymmetric algorithms of RFC 7518 and RFC 8037: a JWKS publishes public keys, so HS* never verifies here.
const ALGORITHMS: Record<string, AlgorithmParameters[]> = {
  EdDSA: [
    { digest: null, keyType: 'ed25519' },
    { digest: null, keyType: 'ed448' }
  ],
  Ed25519: [{ digest: null, keyType: 'ed25519' }],
  ES256: [{ digest: 'sha256', keyType: 'ec', curve: 'prime256v1' }],
  ES384: [{ digest: 'sha384', keyType: 'ec', curve: 'secp384r1' }],
  ES512: [{ digest: 'sha512', keyType: 'ec', curve: 'secp521r1' }],
  RS256: [{ digest: 'sha256', keyType: 'rsa' }],
  RS384: [{ digest: 'sha384', keyType: 'rsa' }],
  RS512: [{ digest: 'sha512', keyType: 'rsa' }],
  PS256: [{ digest: 'sha256', keyType: 'rsa', pss: true }],
  PS384: [{ digest: 'sha384', keyType: 'rsa', pss: true }],
  PS512: [{ digest: 'sha512', keyType: 'rsa', pss: true }]
}

/** RSA keys shorter than this are refused, as jose refuses them. */
const MIN_RSA_BITS = 2048

/**
 * A verifier for one JWK of the upstream's key set, on node:crypto's `verify` with a callback: the
 * signature is checked on libuv's thread pool. The check runs after the client's answer, on every
 * forwarded call that carries a license token, so on the server's thread it sits between one call
 * and the next: there it costs the hand-off alone (Ed25519, 20,000 in a loop: 26-30 us of the
 * thread's CPU, against 107-116 us for the synchronous `verify`). Why not jose's `compactVerify`:
 * in Node it goes through WebCrypto, whose promise and key handling cost about 400 us a token.
 * The key's own `alg`, when it names one, must be the header's.
 * Throws when the JWK is not a public key node:crypto can import.
 */
export function jwsVerifierOf(jwk: Record<string, unknown>): JwsVerifier {
  // A JWK with a private part imports as a private key; only its public half is ever used.
  const key: KeyObject = createPublicKey({ key: publicPartOf(jwk), format: 'jwk' })
  const keyAlg = typeof jwk.alg === 'string' ? jwk.alg : undefined
  const keyType = key.asymmetricKeyType
  const details = key.asymmetricKeyDetails
  return async (alg, signingInput, signature) => {
    if (alg === undefined || (keyAlg !== undefined && keyAlg !== alg)) return false
    const parameters = ALGORITHMS[alg]?.find(
      (candidate) =>
        candidate.keyType === keyType && (candidate.curve === undefined || candidate.curve === details?.namedCurve)
    )
    if (!parameters) return false
    if (parameters.keyType === 'rsa' && (details?.modulusLength ?? 0) < MIN_RSA_BITS) return false
    const input: VerifyKeyObjectInput | VerifyPublicKeyInput = parameters.pss
      ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
      : parameters.keyType === 'ec'
        ? { key, dsaEncoding: 'ieee-p1363' }
        : { key }
    return new Promise<boolean>((resolve) => {
      try {
        verify(parameters.digest, Buffer.from(signingInput), input, signature, (error, valid) =>
          resolve(error === null && valid)
        )
      } catch {
        // What node:crypto refuses before it starts is no valid signature either (a signature of the
        // wrong size is not refused: it answers false).
        resolve(false)
      }
    })
  }
}

/** The members of a public JWK (RFC 7517, 7518, 8037): the private ones (d, p, q, dp, dq, qi, oth) dropped. */
function publicPartOf(jwk: Record<string, unknown>): Record<string, unknown> & { kty: string } {
  const { kty, crv, x, y, n, e } = jwk
  if (typeof kty !== 'string') throw new Error('A JWK without kty.')
  const part: Record<string, unknown> & { kty: string } = { kty }
  for (const [name, value] of Object.entries({ crv, x, y, n, e })) if (value !== undefined) part[name] = value
  return part
}
