import { createHmac, randomBytes } from 'node:crypto'
import { decodeJwt, decodeProtectedHeader } from 'jose'

import { credentialValuesOf, literalReplacements, replaceLiterals } from '../redaction/credential-values'
import type { LiteralReplacement } from '../redaction/credential-values'
import { replaceSecretShapes, SECRET_FIELD_NAMES, SECRET_HEADER_NAMES } from '../redaction/redact'
import type { RecordedHeaders, RecordedLicenseToken } from './recording-format'

/** A fresh salt for a new recording: 32 random bytes, hex. */
export function newFingerprintSalt(): string {
  return randomBytes(32).toString('hex')
}

/** `fp.<kind>.<64 hex>`: no secret shape matches it, and it travels in a URL unescaped. */
const FINGERPRINT = /^fp\.[A-Za-z]+\.[0-9a-f]{64}$/

export function isFingerprint(value: string): boolean {
  return FINGERPRINT.test(value)
}

/** What a secret looks like, read from its shape (never verified): the label its fingerprint carries. */
function kindOfShape(run: string): string {
  if (run.startsWith('pk_')) return 'pluginKey'
  if (run.startsWith('sk_')) return 'pluginSecret'
  if (run.startsWith('clm_')) return 'claimToken'
  try {
    if (decodeProtectedHeader(run).typ === 'license+jwt') return 'licenseToken'
  } catch {
    // Not decodable: a JWT-shaped run all the same.
  }
  return 'jwt'
}

export interface FingerprintRules {
  /** Lower-case header names whose whole value is a credential (the product credential headers, the admin token header). */
  credentialHeaders: ReadonlySet<string>
}

/** A request's headers as Node gives them. */
export type HeaderSource = Readonly<Record<string, string | readonly string[] | undefined>>

/** The auth scheme of an Authorization value (`Bearer`), and the credential after it. */
const AUTH_SCHEME = /^([A-Za-z][A-Za-z0-9_-]*)\s+(\S.*)$/

/**
 * Replaces secrets with fingerprints (HMAC-SHA256 under the recording's salt): the same secret
 * always gives the same fingerprint within one recording, so replay matches a presented
 * credential without the recording ever holding it. License tokens met on the way are kept as
 * header and claims (their signature dropped) for replay's `resign`.
 *
 * Given the headers of the request being recorded (`echoesOf`), the values its credential
 * headers carried are secrets wherever the exchange repeats them, whatever their shape (a real
 * platform's secret need not look like `sk_…`): each is replaced by the fingerprint its header has.
 */
export function createFingerprinter(salt: string, rules: FingerprintRules, echoesOf?: HeaderSource) {
  const licenseTokens = new Map<string, RecordedLicenseToken>()

  const fingerprint = (value: string, kind: string): string => {
    if (isFingerprint(value)) return value
    const digest = createHmac('sha256', Buffer.from(salt, 'hex')).update(value, 'utf8').digest('hex')
    const print = `fp.${kind}.${digest}`
    if (kind === 'licenseToken' && !licenseTokens.has(print)) {
      try {
        licenseTokens.set(print, {
          fingerprint: print,
          header: decodeProtectedHeader(value),
          claims: decodeJwt(value)
        })
      } catch {
        // Not decodable after all: only its fingerprint is kept.
      }
    }
    return print
  }

  /** Text with every run that has a secret's shape fingerprinted. */
  const shapes = (value: string): string => replaceSecretShapes(value, (run) => fingerprint(run, kindOfShape(run)))

  /**
   * A whole value that is a secret by where it stands (a secret-named field or header). Read by
   * its shape and name only, never the request's echoes, so replay (which knows no echoes) gives it
   * the same fingerprint.
   */
  const whole = (value: string, name: string): string => {
    if (value === '' || isFingerprint(value)) return value
    const shaped = shapes(value)
    // A secret-shaped value keeps its shape's kind; any other value is fingerprinted whole under its field's name.
    if (shaped !== value && isFingerprint(shaped)) return shaped
    return fingerprint(value, name.replace(/[^A-Za-z]/g, '') || 'secret')
  }

  const json = (value: unknown, depth = 0): unknown => {
    if (typeof value === 'string') return text(value)
    if (value === null || typeof value !== 'object' || depth > 64) return value
    if (Array.isArray(value)) return value.map((item) => json(item, depth + 1))
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      out[key] =
        SECRET_FIELD_NAMES.has(key.toLowerCase()) && typeof item === 'string' ? whole(item, key) : json(item, depth + 1)
    }
    return out
  }

  /** A raw query string with secret-named parameters and secret-shaped values fingerprinted; '' stays ''. */
  const query = (raw: string): string => {
    if (raw === '') return ''
    const params = new URLSearchParams(raw)
    const out = new URLSearchParams()
    for (const [key, value] of params) {
      out.append(key, SECRET_FIELD_NAMES.has(key.toLowerCase()) ? whole(value, key) : text(value))
    }
    return out.toString()
  }

  /** The name a credential header's value is fingerprinted under (`x-svc-plugin-secret`: `pluginsecret`). */
  const headerKind = (name: string) => name.replace(/^x-[a-z0-9]+-/, '')

  const headerValue = (name: string, value: string): string => {
    if (rules.credentialHeaders.has(name) || SECRET_HEADER_NAMES.has(name) || SECRET_FIELD_NAMES.has(name)) {
      // The scheme of an Authorization value stays readable (`Bearer fp.jwt...`).
      const scheme = AUTH_SCHEME.exec(value.trim())
      if (scheme && (name === 'authorization' || name === 'proxy-authorization'))
        return `${scheme[1]} ${whole(scheme[2] as string, 'bearer')}`
      return whole(value, headerKind(name))
    }
    return text(value)
  }

  // The request's credentials as literals, each with its header's fingerprint (which is JSON- and
  // URL-safe, so one stand-in serves every form the value is found in).
  const echoed = credentialValuesOf(echoesOf ?? {}, rules.credentialHeaders)
  const echoes: LiteralReplacement[] = []
  if (echoed.length > 0) {
    const { plain, json } = literalReplacements(echoed, (credential) =>
      whole(credential.value, credential.afterScheme ? 'bearer' : headerKind(credential.header))
    )
    for (const item of [...plain, ...json]) if (!echoes.some((seen) => seen.find === item.find)) echoes.push(item)
  }

  /** Text with the request's credentials and every run that has a secret's shape fingerprinted. */
  const text = (value: string): string => shapes(echoes.length === 0 ? value : replaceLiterals(value, echoes))

  const headers = (source: Readonly<Record<string, string | readonly string[] | undefined>>): RecordedHeaders => {
    const out: RecordedHeaders = {}
    for (const [rawName, value] of Object.entries(source)) {
      if (value === undefined) continue
      const name = rawName.toLowerCase()
      out[name] = typeof value === 'string' ? headerValue(name, value) : value.map((item) => headerValue(name, item))
    }
    return out
  }

  return {
    fingerprint,
    /** The request's credential values this fingerprinter replaces wherever they appear (see `echoesOf`). */
    echoedValues: echoed.map((credential) => credential.value) as readonly string[],
    text,
    json,
    query,
    headers,
    /**
     * The fingerprint `value` got where it was sent in the credential header whose name ends in
     * `-<suffix>` (`plugin-key`), whatever its shape (null when no such header is known): how a
     * user's plain key is matched against a recording, which `text` cannot do for a key not shaped like one.
     */
    asCredentialHeader(value: string, suffix: string): string | null {
      const name = [...rules.credentialHeaders].find((header) => header.endsWith(`-${suffix}`))
      return name === undefined ? null : headerValue(name, value)
    },
    /** The license tokens met since the last call, and forgets them. */
    takeLicenseTokens(): RecordedLicenseToken[] {
      const taken = [...licenseTokens.values()]
      licenseTokens.clear()
      return taken
    }
  }
}

export type Fingerprinter = ReturnType<typeof createFingerprinter>
