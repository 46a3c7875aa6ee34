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

/**
 * What walking a value against one schema node needs of the node: its references followed, its
 * alternatives, its allOf parts, the types and fixed lists they allow, an object's declared fields.
 * Made once per node and contract and kept: the document does not change, and building these on
 * every walk (arrays, spreads, maps) was most of the check's cost, on every forwarded answer.
 */
interface PreparedNode {
  /** The node with its `$ref`s followed; null when one points nowhere. */
  readonly schema: SchemaNode | null
  /** anyOf and oneOf, each with the rest of the node beside it; empty when the node has none. */
  readonly branches: readonly SchemaNode[]
  /** The node and its allOf parts, each resolved. */
  readonly parts: readonly SchemaNode[]
  /** The types the parts allow together, or null when none says. */
  readonly types: readonly string[] | null
  /** The types the node alone allows (how a branch is matched to a value's type). */
  readonly ownTypes: readonly string[] | null
  /** Each part's fixed list of values (enum, or const as a list of one). */
  readonly allowed: readonly (readonly unknown[])[]
  /** Each part's schema for array items. */
  readonly items: readonly SchemaNode[]
  /** Made on the first object walked against the node. */
  object: PreparedObject | null
}

interface PreparedObject {
  readonly declared: ReadonlyMap<string, readonly SchemaNode[]>
  readonly required: readonly string[]
  readonly extra: readonly SchemaNode[]
  readonly open: boolean
}

const preparedByContract = new WeakMap<DocumentedContract, WeakMap<SchemaNode, PreparedNode>>()

function prepare(contract: DocumentedContract, node: SchemaNode): PreparedNode {
  let cache = preparedByContract.get(contract)
  if (!cache) {
    cache = new WeakMap()
    preparedByContract.set(contract, cache)
  }
  let prepared = cache.get(node)
  if (!prepared) {
    prepared = prepareNode(contract, node)
    cache.set(node, prepared)
  }
  return prepared
}

function prepareNode(contract: DocumentedContract, node: SchemaNode): PreparedNode {
  const schema = deref(contract, node)
  if (!schema)
    return { schema, branches: [], parts: [], types: null, ownTypes: null, allowed: [], items: [], object: null }
  const alternatives = [...asArray(schema.anyOf), ...asArray(schema.oneOf)].filter(isObject)
  // The rest of the node (a description, a shared type) applies beside the alternatives.
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = schema
  const branches = alternatives.map((alternative) =>
    Object.keys(rest).length > 0 ? { allOf: [rest, alternative] } : alternative
  )
  const parts = [schema, ...asArray(schema.allOf).filter(isObject)]
    .map((part) => deref(contract, part))
    .filter((part): part is SchemaNode => part !== null)
  const allowed: (readonly unknown[])[] = []
  for (const part of parts) {
    const list = part.enum ?? ('const' in part ? [part.const] : undefined)
    if (Array.isArray(list)) allowed.push(list)
  }
  return {
    schema,
    branches,
    parts,
    types: typesOf(parts),
    ownTypes: typesOf([schema]),
    allowed,
    items: parts.map((part) => part.items).filter(isObject),
    object: null
  }
}

function prepareObject(parts: readonly SchemaNode[]): PreparedObject {
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
  return { declared, required: [...required], extra, open: !anyProperties && extra.length === 0 }
}

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
  const prepared = prepare(contract, node)
  if (!prepared.schema) return
  if (prepared.branches.length > 0) {
    walkAlternatives(contract, prepared.branches, value, path, key, found, depth)
    return
  }
  // allOf: every part holds; an object's declared fields are those of all parts together.
  const { types } = prepared
  const seenType = typeOf(value)
  if (types && !types.some((type) => accepts(type, seenType))) {
    found.push({ kind: 'WRONG_TYPE', location: 'body', path, expected: types.join(' | '), seen: seenType, value })
    return
  }
  for (const allowed of prepared.allowed) {
    if (!allowed.some((item) => item === value)) {
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
  if (isObject(value))
    walkObject(contract, (prepared.object ??= prepareObject(prepared.parts)), value, path, found, depth)
  else if (Array.isArray(value)) {
    for (const items of prepared.items)
      for (const item of value) walk(contract, items, item, `${path}[]`, null, found, depth + 1)
  }
}

function walkAlternatives(
  contract: DocumentedContract,
  branches: readonly SchemaNode[],
  value: unknown,
  path: string,
  key: string | null,
  found: ExchangeFinding[],
  depth: number
): void {
  const results = branches.map((branch) => {
    const inner: ExchangeFinding[] = []
    walk(contract, branch, value, path, key, inner, depth + 1)
    return inner
  })
  if (results.some((inner) => inner.length === 0)) return
  // None fits: report against the branch of the value's own type, else that the type is wrong.
  const seenType = typeOf(value)
  const index = branches.findIndex((branch) => {
    const types = prepare(contract, branch).ownTypes
    return types !== null && types.some((type) => accepts(type, seenType))
  })
  if (index >= 0) {
    found.push(...(results[index] ?? []))
    return
  }
  const expected = [...new Set(branches.flatMap((branch) => prepare(contract, branch).ownTypes ?? ['any']))].join(' | ')
  found.push({ kind: 'WRONG_TYPE', location: 'body', path, expected, seen: seenType, value })
}

function walkObject(
  contract: DocumentedContract,
  object: PreparedObject,
  value: Json,
  path: string,
  found: ExchangeFinding[],
  depth: number
): void {
  const { declared, required, extra, open } = object
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
  for (const name of Object.keys(value)) {
    const item = value[name]
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
