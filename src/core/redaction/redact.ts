/**
 * Replaces secrets inside free text and JSON with previews, so nothing that reaches a log,
 * the audit trail, the request inspector or an export can be used as a credential.
 * Previews keep at most the first 8 and last 4 characters (decisions.md section 2).
 */

export function previewOf(value: string): string {
  if (value.length <= 16) return `${value.slice(0, Math.min(4, value.length))}...`
  return `${value.slice(0, 8)}...${value.slice(-4)}`
}

// Plugin keys, plugin secrets, and any compact JWS/JWT (developer, customer, library, license tokens).
const SECRET_PATTERNS: readonly RegExp[] = [
  /\b(?:pk|sk)_[A-Za-z0-9]{16,}\b/g,
  /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}/g
]

export function redactText(text: string): string {
  let out = text
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, (match) => previewOf(match))
  return out
}

/** Deep copy of `value` with every secret-looking string, and every value under a secret-named key, previewed. */
export function redactJson(value: unknown, secretKeys: ReadonlySet<string> = SECRET_FIELD_NAMES): unknown {
  if (typeof value === 'string') return redactText(value)
  if (Array.isArray(value)) return value.map((item) => redactJson(item, secretKeys))
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      out[key] =
        secretKeys.has(key.toLowerCase()) && typeof item === 'string' ? previewOf(item) : redactJson(item, secretKeys)
    }
    return out
  }
  return value
}

/** Field names whose values are secret whatever they look like (compared lower-case). */
export const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set([
  'pluginkey',
  'pluginsecret',
  'productkey',
  'productsecret',
  'plugin_key',
  'plugin_secret',
  'token',
  'library_token',
  'librarytoken',
  'download_token',
  'downloadtoken',
  'license_token',
  'licensetoken',
  'claim',
  'claim_token',
  'claimtoken',
  'authorization',
  'x-emulator-token',
  'admintoken',
  'password'
])

/** A URL with the values of secret-named query parameters previewed. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?')
  if (queryStart < 0) return redactText(url)
  const params = new URLSearchParams(url.slice(queryStart + 1))
  for (const [key, value] of [...params.entries()]) {
    params.set(key, SECRET_FIELD_NAMES.has(key.toLowerCase()) ? previewOf(value) : redactText(value))
  }
  return `${redactText(url.slice(0, queryStart))}?${params.toString()}`
}
