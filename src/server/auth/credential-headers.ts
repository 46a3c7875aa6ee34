import type { IncomingHttpHeaders } from 'node:http'

/** Header names of the product credential for a given prefix (docs/api.md section 5). */
export function credentialHeaderNames(prefix: string) {
  const p = prefix.toLowerCase()
  return {
    appId: `x-${p}-app-id`,
    pluginKey: `x-${p}-plugin-key`,
    pluginSecret: `x-${p}-plugin-secret`,
    apiKey: `x-${p}-api-key`
  } as const
}

/** The Bearer value of an Authorization header, if any. */
export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const value = headers.authorization
  if (typeof value !== 'string') return null
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value)
  return match?.[1] ?? null
}

/** Values shaped like product credentials: App ID, plugin key or plugin secret. */
export function looksLikeProductCredential(value: string): boolean {
  return /^(?:app|pk|sk)_[A-Za-z0-9]+$/.test(value)
}

/** True when a request presents any product credential, in a header or as a Bearer value. */
export function presentsProductCredential(headers: IncomingHttpHeaders, prefix: string): boolean {
  const names = credentialHeaderNames(prefix)
  if (Object.values(names).some((name) => headers[name] !== undefined)) return true
  const bearer = bearerToken(headers)
  return bearer !== null && looksLikeProductCredential(bearer)
}
