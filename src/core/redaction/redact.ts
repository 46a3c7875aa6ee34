/**
 * Replaces secrets inside free text and JSON with previews, so nothing that reaches a log,
 * the audit trail, the request inspector or an export can be used as a credential.
 * Previews keep at most the first 8 and last 4 characters (docs/api.md section 2).
 */

import { SECRET_FIELD_NAMES } from '../../shared/contract/secret-fields'

export function previewOf(value: string): string {
  // A short value keeps at most a quarter of itself (so 'abc' is not shown whole as 'abc...').
  if (value.length <= 16) return `${value.slice(0, Math.floor(value.length / 4))}...`
  return `${value.slice(0, 8)}...${value.slice(-4)}`
}

// Plugin keys, plugin secrets, reseller claim tokens, and any compact JWS/JWT (developer,
// customer, library, download and license tokens).
const SECRET_PATTERNS: readonly RegExp[] = [
  // Not \b: a key glued to an underscore (`KEY_pk_...`, `pk_..._old`) must be caught too.
  /(?<![A-Za-z0-9])(?:pk|sk|clm)_[A-Za-z0-9]{16,}/g,
  /(?<![A-Za-z0-9])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}/g
]

/** The same shapes, anchored: for telling whether a whole value is one secret. */
const WHOLE_SECRET_PATTERNS: readonly RegExp[] = SECRET_PATTERNS.map((pattern) => new RegExp(`^(?:${pattern.source})$`))

/** True when the whole value has a secret's shape (`sk_…`, a JWT): redaction by shape finds it anywhere. */
export function isSecretShaped(value: string): boolean {
  return WHOLE_SECRET_PATTERNS.some((pattern) => pattern.test(value))
}

/** No secret pattern matches text shorter than this (`pk_` and 16 characters). */
const SHORTEST_SECRET = 19

export function redactText(text: string): string {
  return replaceSecretShapes(text, previewOf)
}

/**
 * `text` with every run that has a secret's shape (plugin key or secret, claim token, any JWT)
 * replaced by `replace(run)`: the one place a secret is recognised by its shape (redaction,
 * recordings' fingerprints and their write-time check all go through it).
 */
export function replaceSecretShapes(text: string, replace: (run: string) => string): string {
  // Most values (header values, ids, codes) cannot hold a secret: answered without a regex.
  if (text.length < SHORTEST_SECRET || (!text.includes('_') && !text.includes('eyJ'))) return text
  let out = text
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, (match) => replace(match))
  return out
}

/** Deep copy of `value` with every secret-looking string, and every value under a secret-named key, previewed. */
/** JSON nested deeper than this is not walked: the inspector keeps a marker in its place. */
export const MAX_REDACTION_DEPTH = 64
/** What stands where nesting went deeper than MAX_REDACTION_DEPTH. */
export const TOO_DEEP = `[nested deeper than ${MAX_REDACTION_DEPTH} levels: not recorded]`

/**
 * `value` with what redactJson would cut already cut: an object or array past MAX_REDACTION_DEPTH
 * levels replaced by TOO_DEEP, nothing else changed, so redactJson makes the same of it. For a
 * body nested too deeply to be copied whole to another thread (a structured clone recurses).
 */
export function cutPastRedactionDepth(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value
  if (depth >= MAX_REDACTION_DEPTH) return TOO_DEEP
  if (Array.isArray(value)) return value.map((item) => cutPastRedactionDepth(item, depth + 1))
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(source)) {
    const item = cutPastRedactionDepth(source[key], depth + 1)
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true })
    else out[key] = item
  }
  return out
}

export function redactJson(value: unknown, secretKeys: ReadonlySet<string> = SECRET_FIELD_NAMES, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value)
  if (value === null || typeof value !== 'object') return value
  // Client input may nest thousands of levels: cut, so a capture never overflows the stack.
  if (depth >= MAX_REDACTION_DEPTH) return TOO_DEEP
  if (Array.isArray(value)) return value.map((item) => redactJson(item, secretKeys, depth + 1))
  const source = value as Record<string, unknown>
  const out: Record<string, unknown> = {}
  // Object.keys, not Object.entries: no pair array per member (this runs on every recorded body).
  for (const key of Object.keys(source)) {
    const item = source[key]
    // A key can be a secret too (a map keyed by plugin key): it is previewed like a value.
    const shown =
      secretKeys.has(key.toLowerCase()) && typeof item === 'string'
        ? previewOf(item)
        : redactJson(item, secretKeys, depth + 1)
    // JSON.parse makes `__proto__` an own member; assigned, it would set the copy's prototype and be lost.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: shown, enumerable: true, writable: true, configurable: true })
    else out[redactText(key)] = shown
  }
  return out
}

/** Field names whose values are secret whatever they look like (compared lower-case): the contract's list. */
export { SECRET_FIELD_NAMES }

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')
const SECRET_JSON_MEMBER = new RegExp(
  `"(${[...SECRET_FIELD_NAMES].map(escapeForRegExp).join('|')})"(\\s*:\\s*)"((?:[^"\\\\]|\\\\.)*)"`,
  'gi'
)

/**
 * JSON text (possibly cut short, so not parseable) with secret-named string members and
 * secret-looking values previewed: for bodies too large to parse just to show their start.
 */
export function redactJsonText(text: string): string {
  return redactText(
    text.replace(
      SECRET_JSON_MEMBER,
      (_match, name: string, separator: string, value: string) => `"${name}"${separator}"${previewOf(value)}"`
    )
  )
}

/** What stands in for a value that must not be shown even in part. */
export const HIDDEN = '[hidden]'

const CONTROL_PLANE_PATH = /^\/_emulator(?:[/?]|$)/

/**
 * A URL with the values of secret-named query parameters previewed (hidden whole on the
 * control plane), and secret-looking text in the path and other parameters previewed.
 */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?')
  if (queryStart < 0) return redactText(url)
  // On the control plane the only secret a query carries is the admin token (the SSE route
  // accepts `?token=` because EventSource cannot set headers): even 12 of its characters stay out.
  const hideWhole = CONTROL_PLANE_PATH.test(url)
  const params = new URLSearchParams(url.slice(queryStart + 1))
  for (const [key, value] of [...params.entries()]) {
    const secretNamed = SECRET_FIELD_NAMES.has(key.toLowerCase())
    params.set(key, secretNamed ? (hideWhole ? HIDDEN : previewOf(value)) : redactText(value))
  }
  return `${redactText(url.slice(0, queryStart))}?${params.toString()}`
}

/**
 * Header names whose values are secret whatever they look like, besides SECRET_FIELD_NAMES
 * and the prefixed product credential headers (whose names depend on the configured prefix).
 */
export const SECRET_HEADER_NAMES: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie'
])

export type HeaderValue = string | number | readonly string[] | undefined

export interface HeaderRedaction {
  /** Extra lower-case header names to preview whatever their value (such as `x-svc-plugin-secret`). */
  previewed?: ReadonlySet<string>
  /** Lower-case header names whose values are replaced whole (such as `x-emulator-token`). */
  hidden?: ReadonlySet<string>
}

/** Headers whose value starts with an auth scheme (`Bearer`): only there is a first word not part of the secret. */
const SCHEMED_HEADER_NAMES: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization'])

/**
 * Headers as plain strings with credentials previewed: secret-named headers whatever their
 * value, the scheme of an Authorization value kept (`Bearer eyJhbGci...`), and secret-looking
 * text in any other header. Names come out lower-case; absent values are dropped.
 */
export function redactHeaders(
  headers: Readonly<Record<string, HeaderValue>>,
  rules: HeaderRedaction = {}
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {}
  for (const [rawName, value] of Object.entries(headers)) {
    if (value === undefined) continue
    const name = rawName.toLowerCase()
    const redactOne = (item: string): string => {
      if (rules.hidden?.has(name)) return HIDDEN
      if (SCHEMED_HEADER_NAMES.has(name)) return previewWithScheme(item)
      // Any other credential is previewed whole: a secret with a space has no scheme to keep.
      if (SECRET_HEADER_NAMES.has(name) || SECRET_FIELD_NAMES.has(name) || rules.previewed?.has(name))
        return previewOf(item)
      return redactText(item)
    }
    out[name] = Array.isArray(value) ? value.map((item) => redactOne(String(item))) : redactOne(String(value))
  }
  return out
}

/** `Bearer <preview>` for a credential with an auth scheme, else the preview of the whole value. */
function previewWithScheme(value: string): string {
  const match = /^([A-Za-z][A-Za-z0-9_-]*)\s+(\S.*)$/.exec(value.trim())
  return match ? `${match[1]} ${previewOf(match[2] as string)}` : previewOf(value)
}
