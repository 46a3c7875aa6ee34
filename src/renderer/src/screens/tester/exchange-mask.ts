/**
 * The connection tester shows the requests it sent, secrets included, only when asked: by
 * default the plugin secret (and the plugin key) are masked in headers and bodies.
 */

const SECRET_BODY_KEYS = new Set(['pluginSecret', 'plugin_secret', 'pluginKey', 'plugin_key'])

export function maskValue(value: string): string {
  const prefix = /^[a-z]{2,4}_/.exec(value)?.[0] ?? ''
  const tail = value.length > prefix.length + 8 ? value.slice(-4) : ''
  return `${prefix}${'•'.repeat(8)}${tail}`
}

export function isSecretHeader(name: string): boolean {
  const lower = name.toLowerCase()
  return /^x-[a-z0-9-]+-(plugin-secret|plugin-key|api-key)$/.test(lower) || lower === 'authorization'
}

export function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (!isSecretHeader(name)) out[name] = value
    else if (name.toLowerCase() === 'authorization')
      out[name] = value.replace(
        /^(Bearer\s+)(.+)$/i,
        (_m, scheme: string, token: string) => `${scheme}${maskValue(token)}`
      )
    else out[name] = maskValue(value)
  }
  return out
}

export function maskBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(maskBody)
  if (body === null || typeof body !== 'object') return body
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    out[key] = SECRET_BODY_KEYS.has(key) && typeof value === 'string' ? maskValue(value) : maskBody(value)
  }
  return out
}

/** A curl command line for the request (with the values as sent: for the person's own terminal). */
export function toCurl(request: {
  method: string
  url: string
  headers: Record<string, string>
  body: unknown
}): string {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`
  const parts = [`curl -X ${request.method} ${quote(request.url)}`]
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'accept') continue
    parts.push(`-H ${quote(`${name}: ${value}`)}`)
  }
  if (request.body !== null && request.body !== undefined) parts.push(`--data ${quote(JSON.stringify(request.body))}`)
  return parts.join(' \\\n  ')
}
