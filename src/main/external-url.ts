const MAX_URL_LENGTH = 4096

/**
 * The URL to hand to the OS browser, or null when it must not be opened: only http and https
 * (never file:, javascript:, custom protocol handlers or anything that launches a program), no
 * embedded user name or password, and a sane length.
 */
export function parseExternalUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL_LENGTH) return null
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  if (url.username !== '' || url.password !== '') return null
  if (url.hostname === '') return null
  return url.href
}

/** The origin of a URL, or null when it has none (about:blank, data:, malformed). */
export function originOf(value: string): string | null {
  try {
    const origin = new URL(value).origin
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}
