import { LICENSE_TOKEN_TYPE } from '../licensing/license-tokens'
import { redactJson } from '../redaction/redact'
import type { DecodedLicenseToken } from './types'

/** Tokens decoded per body at most: a body is not a token store. */
const MAX_TOKENS = 8
/** A compact license token is about 700 characters; a much longer one is not decoded (its claims could be megabytes). */
const MAX_TOKEN_CHARS = 8 * 1024
const COMPACT_JWS = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

/**
 * The license tokens (`typ: license+jwt`, docs/api.md "Verifying a license token offline") a
 * parsed JSON body carries in its string members, top level or one object down (`license_token`
 * of an activate or validate answer, whoever answered it): their JOSE header and claims, each
 * redacted as the inspector redacts any JSON (a claim holding a key, a secret or another token
 * keeps a preview only). The signature, and so the compact token, is not kept. Only object
 * members are looked at, never arrays: a 1,000-item library costs a few key reads.
 */
export function licenseTokensIn(body: unknown): DecodedLicenseToken[] {
  const found: DecodedLicenseToken[] = []
  const look = (holder: object, prefix: string, depth: number): void => {
    for (const name of Object.keys(holder)) {
      if (found.length >= MAX_TOKENS) return
      const value = (holder as Record<string, unknown>)[name]
      if (typeof value === 'string') {
        const decoded = decodeLicenseToken(value)
        if (decoded) found.push({ field: `${prefix}${name}`, ...decoded })
      } else if (depth === 0 && isObject(value)) {
        look(value, `${prefix}${name}.`, depth + 1)
      }
    }
  }
  if (isObject(body)) look(body, '', 0)
  return found
}

/** Header and claims of a license token, redacted; null for anything else (another JWT, or not a JWS at all). */
function decodeLicenseToken(value: string): Omit<DecodedLicenseToken, 'field'> | null {
  if (!value.startsWith('eyJ') || value.length > MAX_TOKEN_CHARS || !COMPACT_JWS.test(value)) return null
  const headerEnd = value.indexOf('.')
  const header = licenseTokenHeader(value.slice(0, headerEnd))
  if (!header) return null
  const claims = jsonSegment(value.slice(headerEnd + 1, value.indexOf('.', headerEnd + 1)))
  // Shaped like a token but not decodable: the body's preview is all there is.
  if (!isObject(claims)) return null
  return { header, claims: redactJson(claims) as Record<string, unknown> }
}

/** Header segments seen last, decoded and redacted: a signing key's tokens all carry the same one. */
const recentHeaders = new Map<string, Record<string, unknown> | null>()
const RECENT_HEADERS = 16

/** A license token's JOSE header, redacted, from its encoded segment; null when the segment is not one. */
function licenseTokenHeader(segment: string): Record<string, unknown> | null {
  const known = recentHeaders.get(segment)
  if (known !== undefined) return known
  const header = jsonSegment(segment)
  const decoded =
    isObject(header) && (header as { typ?: unknown }).typ === LICENSE_TOKEN_TYPE
      ? Object.freeze(redactJson(header) as Record<string, unknown>)
      : null
  if (recentHeaders.size >= RECENT_HEADERS) recentHeaders.delete(recentHeaders.keys().next().value as string)
  recentHeaders.set(segment, decoded)
  return decoded
}

/**
 * One base64url JSON segment of a compact JWS, or undefined. Decoded here rather than with jose's
 * decodeJwt, whose checks (the claims' types, the header's `crit`) are a verifier's and cost
 * the request log a fifth of its time a validate (profiled); COMPACT_JWS has already held the
 * alphabet, so Buffer's decoder skips nothing.
 */
function jsonSegment(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
  } catch {
    return undefined
  }
}

function isObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}
