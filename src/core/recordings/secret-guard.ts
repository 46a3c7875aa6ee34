import { replaceSecretShapes } from '../redaction/redact'

/**
 * Where a recording (or one exchange of it) still holds a value with a secret's shape, or one
 * of the literal values given (the admin token): the JSON path of the first, or null when it
 * holds none. The values themselves are never returned, so a refusal can name where without
 * repeating what.
 */
export function firstSecretIn(value: unknown, literals: readonly string[], path = '$'): string | null {
  if (typeof value === 'string') {
    let found = false
    replaceSecretShapes(value, (run) => {
      found = true
      return run
    })
    if (found) return path
    for (const literal of literals) if (literal.length >= 8 && value.includes(literal)) return path
    return null
  }
  if (value === null || typeof value !== 'object') return null
  const entries = Array.isArray(value)
    ? value.map((item, index) => [`[${index}]`, item] as const)
    : Object.entries(value)
  for (const [key, item] of entries) {
    const keyPath = Array.isArray(value) ? `${path}${key}` : `${path}.${key}`
    // A member name can carry a secret as well as a value can.
    if (!Array.isArray(value) && firstSecretIn(key, literals, keyPath) !== null) return keyPath
    const found = firstSecretIn(item, literals, keyPath)
    if (found !== null) return found
  }
  return null
}
