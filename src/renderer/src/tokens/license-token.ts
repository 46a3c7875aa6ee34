import { compactVerify, decodeJwt, decodeProtectedHeader, importJWK } from 'jose'

import { TOKEN_ISSUER } from '../../../shared/contract/licensing'
import type { Jwk } from '../api/types'

/**
 * Checks a license token the way a plugin should before trusting it: the signature against the
 * emulator's published keys (GET /.well-known/jwks.json), then the claims. Time checks use the
 * emulator's now, because the emulator clock may have been moved. Each check says what it
 * found, so a failure reads like a debugger's note, not a boolean.
 */

export type CheckOutcome = 'pass' | 'fail' | 'info'

export interface TokenCheck {
  id: 'format' | 'alg' | 'typ' | 'kid' | 'signature' | 'iss' | 'aud' | 'exp' | 'nbf' | 'nonce' | 'sub' | 'instance'
  label: string
  outcome: CheckOutcome
  detail: string
}

export interface LicenseTokenReport {
  header: Record<string, unknown> | null
  claims: Record<string, unknown> | null
  signatureValid: boolean
  checks: TokenCheck[]
  /** Every check passed (info lines do not count against it). */
  valid: boolean
}

export interface TokenExpectations {
  jwks: readonly Jwk[]
  /** The App ID the token must be addressed to (`aud`). */
  appId: string
  /** The emulator's now, ms since the epoch. */
  nowMs: number
  /** The nonce sent with the request, to be echoed. */
  nonce?: string | undefined
  /** The license id (`sub`) and instance (`instance_id`) the response named. */
  licenseId?: string | undefined
  instanceId?: string | undefined
  issuer?: string | undefined
}

function secondsToWords(seconds: number): string {
  const abs = Math.abs(seconds)
  if (abs < 90) return `${Math.round(abs)} s`
  if (abs < 90 * 60) return `${Math.round(abs / 60)} min`
  if (abs < 36 * 3600) return `${Math.round(abs / 3600)} h`
  return `${Math.round(abs / 86400)} days`
}

export async function inspectLicenseToken(token: string, expect: TokenExpectations): Promise<LicenseTokenReport> {
  const checks: TokenCheck[] = []
  let header: Record<string, unknown> | null = null
  let claims: Record<string, unknown> | null = null
  try {
    header = decodeProtectedHeader(token)
    claims = decodeJwt(token)
  } catch (error) {
    checks.push({
      id: 'format',
      label: 'Format',
      outcome: 'fail',
      detail: `Not a compact JWS: ${error instanceof Error ? error.message : String(error)}`
    })
    return { header, claims, signatureValid: false, checks, valid: false }
  }
  checks.push({ id: 'format', label: 'Format', outcome: 'pass', detail: 'Compact JWS with a JSON header and claims.' })

  const alg = header.alg
  checks.push(
    alg === 'EdDSA'
      ? { id: 'alg', label: 'Algorithm', outcome: 'pass', detail: 'EdDSA (Ed25519).' }
      : {
          id: 'alg',
          label: 'Algorithm',
          outcome: 'fail',
          detail: `Expected EdDSA, got ${String(alg)}. Never accept other algorithms (or "none").`
        }
  )
  checks.push(
    header.typ === 'license+jwt'
      ? { id: 'typ', label: 'Type', outcome: 'pass', detail: 'license+jwt.' }
      : {
          id: 'typ',
          label: 'Type',
          outcome: 'fail',
          detail: `Expected typ "license+jwt", got ${JSON.stringify(header.typ)}.`
        }
  )

  const jwk = expect.jwks.find((key) => key.kid === header?.kid)
  let signatureValid = false
  if (!jwk) {
    checks.push({
      id: 'kid',
      label: 'Key',
      outcome: 'fail',
      detail: `No key with kid ${JSON.stringify(header.kid)} in the JWKS.`
    })
  } else {
    checks.push({
      id: 'kid',
      label: 'Key',
      outcome: 'pass',
      detail: `kid ${jwk.kid} is published in /.well-known/jwks.json.`
    })
    try {
      const key = await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, 'EdDSA')
      await compactVerify(token, key, { algorithms: ['EdDSA'] })
      signatureValid = true
      checks.push({
        id: 'signature',
        label: 'Signature',
        outcome: 'pass',
        detail: 'Verified with the published Ed25519 key.'
      })
    } catch (error) {
      checks.push({
        id: 'signature',
        label: 'Signature',
        outcome: 'fail',
        detail: `Does not verify: ${error instanceof Error ? error.message : String(error)}`
      })
    }
  }

  const issuer = expect.issuer ?? TOKEN_ISSUER
  checks.push(
    claims.iss === issuer
      ? { id: 'iss', label: 'Issuer', outcome: 'pass', detail: `iss is ${issuer}.` }
      : {
          id: 'iss',
          label: 'Issuer',
          outcome: 'fail',
          detail: `Expected iss ${issuer}, got ${JSON.stringify(claims.iss)}.`
        }
  )
  const aud = claims.aud
  const audiences = Array.isArray(aud) ? aud : [aud]
  checks.push(
    audiences.includes(expect.appId)
      ? { id: 'aud', label: 'Audience', outcome: 'pass', detail: `aud is the App ID ${expect.appId}.` }
      : {
          id: 'aud',
          label: 'Audience',
          outcome: 'fail',
          detail: `aud ${JSON.stringify(aud)} is not the App ID ${expect.appId}.`
        }
  )

  const nowS = expect.nowMs / 1000
  if (typeof claims.exp === 'number') {
    const left = claims.exp - nowS
    checks.push(
      left > 0
        ? {
            id: 'exp',
            label: 'Expiry',
            outcome: 'pass',
            detail: `Token valid for another ${secondsToWords(left)} (emulator clock).`
          }
        : {
            id: 'exp',
            label: 'Expiry',
            outcome: 'fail',
            detail: `Token expired ${secondsToWords(left)} ago (emulator clock).`
          }
    )
  } else {
    checks.push({ id: 'exp', label: 'Expiry', outcome: 'fail', detail: 'No exp claim.' })
  }
  if (typeof claims.nbf === 'number' && claims.nbf > nowS + 5) {
    checks.push({
      id: 'nbf',
      label: 'Not before',
      outcome: 'fail',
      detail: `Not valid for another ${secondsToWords(claims.nbf - nowS)}.`
    })
  }

  if (expect.nonce) {
    checks.push(
      claims.nonce === expect.nonce
        ? {
            id: 'nonce',
            label: 'Nonce',
            outcome: 'pass',
            detail: 'The nonce sent is echoed: the answer is fresh, not replayed.'
          }
        : {
            id: 'nonce',
            label: 'Nonce',
            outcome: 'fail',
            detail: `Sent ${expect.nonce}, token has ${JSON.stringify(claims.nonce)}.`
          }
    )
  }
  if (expect.licenseId !== undefined) {
    checks.push(
      claims.sub === expect.licenseId
        ? { id: 'sub', label: 'Subject', outcome: 'pass', detail: `sub is the license ${expect.licenseId}.` }
        : {
            id: 'sub',
            label: 'Subject',
            outcome: 'fail',
            detail: `sub ${JSON.stringify(claims.sub)} is not the license ${expect.licenseId}.`
          }
    )
  }
  if (expect.instanceId !== undefined && claims.instance_id !== undefined) {
    checks.push(
      claims.instance_id === expect.instanceId
        ? { id: 'instance', label: 'Instance', outcome: 'pass', detail: `Bound to instance ${expect.instanceId}.` }
        : {
            id: 'instance',
            label: 'Instance',
            outcome: 'fail',
            detail: `Bound to ${JSON.stringify(claims.instance_id)}, not ${expect.instanceId}.`
          }
    )
  }

  return { header, claims, signatureValid, checks, valid: checks.every((check) => check.outcome !== 'fail') }
}
