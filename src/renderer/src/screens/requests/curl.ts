import { SECRET_FIELD_NAMES } from '../../../../shared/contract/secret-fields'
import type { RequestEntry } from '../../api/types'

/**
 * "Copy as curl": the recorded request as a command to run again by hand. The inspector holds
 * previews of secrets, never their values, and the command holds neither: every credential
 * header, token and secret body field becomes a placeholder to fill in (`<plugin secret>`), so
 * a pasted command can leak nothing and fails loudly until it is filled.
 */

/** Headers a client sets by itself, or that describe this one exchange: left out of the command. */
const LEFT_OUT = new Set([
  'host',
  'content-length',
  'connection',
  'accept-encoding',
  'transfer-encoding',
  'x-emulator-client'
])

/** Header names whose values are credentials, whatever their prefix (`x-svc-plugin-secret`). */
const SECRET_HEADER = /(?:plugin-key|plugin-secret|api-key|authorization|cookie|token)$/i

/** A value the server shortened to a preview (`pk_DemoS...0001`) or hid. */
export const PREVIEW = /^(?:[^\s]{0,8}\.\.\.[^\s]{0,4}|\[hidden\])$/

const words = (name: string) =>
  name
    .replace(/^x-[a-z0-9]+-/i, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .toLowerCase()

function placeholderFor(name: string): string {
  return `<${words(name)}>`
}

/** A shell word in single quotes (a quote inside becomes '\''). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

function withoutSecrets(value: unknown, key = ''): unknown {
  if (typeof value === 'string')
    return SECRET_FIELD_NAMES.has(key.toLowerCase()) || PREVIEW.test(value) ? placeholderFor(key || 'secret') : value
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, key))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withoutSecrets(item, name)]))
  return value
}

export function curlOf(entry: RequestEntry, baseUrl: string): string {
  const lines = [`curl -X ${entry.method} ${shellQuote(baseUrl.replace(/\/$/, '') + entry.path)}`]
  for (const [name, raw] of Object.entries(entry.request.headers)) {
    if (LEFT_OUT.has(name.toLowerCase())) continue
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      let shown = value
      if (name.toLowerCase() === 'authorization') {
        const scheme = /^(\w+)\s/.exec(value)?.[1]
        shown = scheme ? `${scheme} <token>` : '<token>'
      } else if (SECRET_HEADER.test(name) || PREVIEW.test(value)) shown = placeholderFor(name)
      lines.push(`-H ${shellQuote(`${name}: ${shown}`)}`)
    }
  }
  const { body, bodyInfo } = entry.request
  if (bodyInfo.kind === 'json' && !bodyInfo.truncated && body !== null && body !== undefined)
    lines.push(`--data-raw ${shellQuote(JSON.stringify(withoutSecrets(body)))}`)
  else if (bodyInfo.kind === 'text' && typeof body === 'string' && !bodyInfo.truncated)
    lines.push(`--data-raw ${shellQuote(body)}`)
  return lines.join(' \\\n  ')
}
