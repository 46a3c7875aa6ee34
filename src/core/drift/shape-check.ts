import type { DocumentedContract, SchemaNode } from './documented-operations'
import type { ExchangeFinding } from './finding'

/**
 * A JSON body held to a response schema of the document, every object read as closed: a field
 * the schema does not declare is UNKNOWN_FIELD (unless the object declares no fields at all: a
 * free-form map; `additionalProperties: true` beside declared fields does not open it),
 * a required one absent is MISSING_FIELD, a value of another type (or outside a fixed list) is
 * WRONG_TYPE, an error code outside the list is UNKNOWN_ERROR_CODE. Only shapes are compared,
 * never values: formats, patterns and bounds are not checked, so a time or an id that differs
 * from what the emulator would answer makes no finding.
 */
export function checkShape(contract: DocumentedContract, schema: SchemaNode, value: unknown): ExchangeFinding[] {
  const found: ExchangeFinding[] = []
  walk(contract, schema, value, '$', null, found, 0)
  // An answer of thousands of unknown keys says what it has to say in its first findings; the
  // report keeps many exchanges, so each one's findings are bounded.
  return dedupe(found).slice(0, MAX_FINDINGS_PER_ANSWER)
}

/** The most findings one answer contributes. */
const MAX_FINDINGS_PER_ANSWER = 200

/** Deeper than this, a body is not walked (the emulator's answers nest a handful of levels). */
const MAX_DEPTH = 32
/** Keys whose fixed list of values is a list of codes (an error's, a validate answer's). */
const CODE_KEYS = new Set(['error', 'code'])

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value)

function walk(
  contract: DocumentedContract,
  node: SchemaNode,
  value: unknown,
  path: string,
  key: string | null,
  found: ExchangeFinding[],
  depth: number
): void {
  if (depth > MAX_DEPTH) return
  const schema = deref(contract, node)
  if (!schema) return
  const alternatives = [...asArray(schema.anyOf), ...asArray(schema.oneOf)].filter(isObject)
  if (alternatives.length > 0) {
    walkAlternatives(contract, schema, alternatives, value, path, key, found, depth)
    return
  }
  const parts = [schema, ...asArray(schema.allOf).filter(isObject)]
    .map((part) => deref(contract, part))
    .filter((part): part is SchemaNode => part !== null)
  // allOf: every part holds; an object's declared fields are those of all parts together.
  const types = typesOf(parts)
  const seenType = typeOf(value)
  if (types && !types.some((type) => accepts(type, seenType))) {
    found.push({ kind: 'WRONG_TYPE', location: 'body', path, expected: types.join(' | '), seen: seenType, value })
    return
  }
  for (const part of parts) {
    const allowed = part.enum ?? ('const' in part ? [part.const] : undefined)
    if (Array.isArray(allowed) && !allowed.some((item) => item === value)) {
      const codeList = key !== null && CODE_KEYS.has(key) && typeof value === 'string'
      found.push({
        kind: codeList ? 'UNKNOWN_ERROR_CODE' : 'WRONG_TYPE',
        location: 'body',
        path,
        expected: `one of ${listOf(allowed)}`,
        seen: typeof value === 'string' ? value.slice(0, 80) : seenType,
        value
      })
      return
    }
  }
  if (isObject(value)) walkObject(contract, parts, value, path, found, depth)
  else if (Array.isArray(value)) {
    for (const part of parts) {
      if (!isObject(part.items)) continue
      for (const item of value) walk(contract, part.items, item, `${path}[]`, null, found, depth + 1)
    }
  }
}

function walkAlternatives(
  contract: DocumentedContract,
  schema: SchemaNode,
  alternatives: SchemaNode[],
  value: unknown,
  path: string,
  key: string | null,
  found: ExchangeFinding[],
  depth: number
): void {
  // The rest of the node (a description, a shared type) applies beside the alternatives.
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema
  const branches = alternatives.map((alternative) =>
    Object.keys(rest).length > 0 ? { allOf: [rest, alternative] } : alternative
  )
  const results = branches.map((branch) => {
    const inner: ExchangeFinding[] = []
    walk(contract, branch, value, path, key, inner, depth + 1)
    return inner
  })
  if (results.some((inner) => inner.length === 0)) return
  // None fits: report against the branch of the value's own type, else that the type is wrong.
  const seenType = typeOf(value)
  const index = branches.findIndex((branch) => {
    const types = typesOf([deref(contract, branch) ?? {}])
    return types !== null && types.some((type) => accepts(type, seenType))
  })
  if (index >= 0) {
    found.push(...(results[index] ?? []))
    return
  }
  const expected = [...new Set(branches.flatMap((branch) => typesOf([deref(contract, branch) ?? {}]) ?? ['any']))].join(
    ' | '
  )
  found.push({ kind: 'WRONG_TYPE', location: 'body', path, expected, seen: seenType, value })
}

function walkObject(
  contract: DocumentedContract,
  parts: SchemaNode[],
  value: Json,
  path: string,
  found: ExchangeFinding[],
  depth: number
): void {
  const declared = new Map<string, SchemaNode[]>()
  const required = new Set<string>()
  const extra: SchemaNode[] = []
  let anyProperties = false
  for (const part of parts) {
    if (isObject(part.properties)) {
      anyProperties = true
      for (const [name, schema] of Object.entries(part.properties)) {
        if (isObject(schema)) declared.set(name, [...(declared.get(name) ?? []), schema])
      }
    }
    for (const name of asArray(part.required)) if (typeof name === 'string') required.add(name)
    if (isObject(part.additionalProperties)) extra.push(part.additionalProperties)
  }
  // An object declared with no fields at all is free-form (metadata, a map): only its values are held.
  // One that names its fields is closed even under `additionalProperties: true` (docs/upstream.md):
  // the error envelope carries it because details are extra top-level keys, yet names every detail
  // key the emulator answers, so a member none of its schemas names is one it never answers.
  const open = !anyProperties && extra.length === 0
  for (const name of required) {
    if (!(name in value))
      found.push({
        kind: 'MISSING_FIELD',
        location: 'body',
        path: pathOf(path, name),
        expected: 'present',
        seen: 'absent'
      })
  }
  for (const [name, item] of Object.entries(value)) {
    const schemas = declared.get(name)
    if (schemas) for (const schema of schemas) walk(contract, schema, item, pathOf(path, name), name, found, depth + 1)
    else if (extra.length > 0)
      for (const schema of extra) walk(contract, schema, item, pathOf(path, name), name, found, depth + 1)
    else if (!open)
      found.push({
        kind: 'UNKNOWN_FIELD',
        location: 'body',
        path: pathOf(path, name),
        expected: 'absent (the emulator never answers this field)',
        seen: typeOf(item),
        value: item
      })
  }
}

function deref(contract: DocumentedContract, node: SchemaNode): SchemaNode | null {
  let current: SchemaNode | null = node
  // A short chain of references at most; a loop ends here.
  for (let hops = 0; current && typeof current.$ref === 'string' && hops < 8; hops++) {
    const { $ref, ...rest } = current
    const target = contract.resolve($ref)
    current = target ? (Object.keys(rest).length > 0 ? { ...target, ...rest } : target) : null
  }
  return current
}

/** The JSON types the parts allow together (their intersection), or null when none says. */
function typesOf(parts: readonly SchemaNode[]): string[] | null {
  let types: string[] | null = null
  for (const part of parts) {
    let own: string[] | null = null
    if (typeof part.type === 'string') own = [part.type]
    else if (Array.isArray(part.type)) own = part.type.filter((type): type is string => typeof type === 'string')
    else if (Array.isArray(part.enum)) own = [...new Set(part.enum.map(typeOf))]
    else if (isObject(part.properties)) own = ['object']
    if (own === null) continue
    types =
      types === null ? own : types.filter((type) => own.some((other) => accepts(other, type) || accepts(type, other)))
  }
  return types
}

function accepts(type: string, seen: string): boolean {
  return type === seen || (type === 'number' && seen === 'integer')
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number'
  return typeof value === 'object' ? 'object' : typeof value
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

function listOf(values: readonly unknown[]): string {
  const shown = values.slice(0, 12).map((item) => JSON.stringify(item))
  return values.length > 12 ? `${shown.join(', ')} and ${values.length - 12} more` : shown.join(', ')
}

function pathOf(parent: string, name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(name) ? `${parent}.${name}` : `${parent}[${JSON.stringify(name)}]`
}

/** Two parts of an allOf may say the same thing about one value: one finding each. */
function dedupe(found: ExchangeFinding[]): ExchangeFinding[] {
  const seen = new Set<string>()
  return found.filter((finding) => {
    const key = `${finding.kind} ${finding.path}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
