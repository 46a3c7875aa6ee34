import { Compile } from 'typebox/compile'

import { createCredentialRepository } from '../credentials/credential-repository'
import { labelSealedByCurrentKey } from '../credentials/sealed-key-labels'
import { sha256Hex } from '../crypto/digest'
import type { SecretBox } from '../crypto/secret-box'
import { DomainError } from '../errors/domain-error'
import { previewOf, SECRET_FIELD_NAMES } from '../redaction/redact'
import type { Store } from '../store/store'
import { createScenarioRepository } from './scenario-repository'
import { allowedValues, SCENARIO_VERSION, ScenarioDocumentSchema } from './scenario-schema'
import type { ScenarioDocument, ScenarioRow } from './scenario-schema'
import { SECTIONS } from './scenario-tables'
import type { ColumnSpec, SectionName, SectionSpec } from './scenario-tables'

// Compiled on the first import, not at start: the scenario schema is the largest there is (cold start).
const compileDocumentCheck = () => Compile(ScenarioDocumentSchema)
let documentCheck: ReturnType<typeof compileDocumentCheck> | undefined
const checkDocument = () => (documentCheck ??= compileDocumentCheck())

export type ImportCounts = Record<SectionName, number>

/** The 400 for a refused document: the JSON path, the value found there and what is allowed. */
export function invalid(path: string, problem: string, found?: { value: unknown; allowed?: string }): DomainError {
  const at = path || '/'
  const shown =
    found === undefined
      ? ''
      : ` (found ${describeValue(found.value)}${found.allowed ? `; allowed: ${found.allowed}` : ''})`
  return new DomainError(
    'VALIDATION_ERROR',
    `The scenario is not valid at ${at}: ${problem}${shown}. Nothing was changed.`,
    {
      details: {
        path: at,
        ...(found === undefined
          ? {}
          : {
              value: found.value === undefined ? null : found.value,
              ...(found.allowed ? { allowed: found.allowed } : {})
            }),
        details: [{ location: 'body', path: at, problem }]
      }
    }
  )
}

/** A value as a message shows it: short, and never a whole nested document. */
function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}

/** The value at a JSON pointer in `document`, and the column it belongs to when it is a row field. */
function locate(document: unknown, pointer: string): { value: unknown; column: ColumnSpec | undefined } {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
  let value: unknown = document
  for (const part of parts)
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined
  const [section, , field] = parts
  const spec = SECTIONS.find((candidate) => candidate.section === section)
  return { value, column: parts.length === 3 ? spec?.columns.find((column) => column.field === field) : undefined }
}

/** The first schema error, as a path and a sentence. */
function firstSchemaError(document: unknown): DomainError | null {
  if (checkDocument().Check(document)) return null
  const errors = checkDocument().Errors(document)
  const unknownField = errors.find((e) => e.keyword === 'additionalProperties')
  const first = errors.find((e) => e.keyword !== 'boolean') ?? errors[0]
  if (!first) return invalid('/', 'is not a scenario document')
  if (unknownField && (first === unknownField || first.instancePath.startsWith(unknownField.instancePath))) {
    const names = (unknownField.params as { additionalProperties?: string[] }).additionalProperties ?? []
    return invalid(`${unknownField.instancePath}/${names[0] ?? ''}`, 'is not a known field')
  }
  if (first.keyword === 'required') {
    const missing = (first.params as { requiredProperties?: string[] }).requiredProperties?.[0]
    const { column } = locate(document, `${first.instancePath}/${missing ?? ''}`)
    return invalid(
      `${first.instancePath}/${missing ?? ''}`,
      'is required',
      column ? { value: undefined, allowed: allowedValues(column) } : undefined
    )
  }
  // A field of a row: say what it holds and what it may hold, whatever the schema's wording.
  const deepest = errors.reduce((best, e) => (e.instancePath.length > best.instancePath.length ? e : best), first)
  const { value, column } = locate(document, deepest.instancePath)
  if (column) return invalid(deepest.instancePath, 'is not allowed here', { value, allowed: allowedValues(column) })
  // A plain secret an author wrote (pluginKey, claimToken) is named, never repeated.
  const field = first.instancePath.split('/').pop() ?? ''
  if (SECRET_FIELD_NAMES.has(field.toLowerCase())) return invalid(first.instancePath, first.message)
  return invalid(first.instancePath, first.message, { value: locate(document, first.instancePath).value })
}

/** What the schema cannot say: a date-time that matches the pattern but names no real instant (31 April). */
function checkValues(document: ScenarioDocument): void {
  for (const spec of SECTIONS) {
    ;(document[spec.section] ?? []).forEach((row, index) => {
      for (const column of spec.columns) {
        const value = row[column.field]
        if (!column.dateTime || typeof value !== 'string') continue
        const [, year, month, day] = /^(\d{4})-(\d{2})-(\d{2})/.exec(value) ?? []
        const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
        if (Number.isNaN(Date.parse(value)) || date.getUTCDate() !== Number(day)) {
          throw invalid(`/${spec.section}/${index}/${column.field}`, 'is not a real date', {
            value,
            allowed: allowedValues(column)
          })
        }
      }
    })
  }
}

/** Fills derivable credential fields from plain values; never keeps the plain values. */
function normaliseCredentials(document: ScenarioDocument, secretBox: SecretBox | null): void {
  const products = new Map((document.products ?? []).map((p) => [p.id, p]))
  const credentials = document.credentials ?? []
  credentials.forEach((credential, index) => {
    const path = `/credentials/${index}`
    const { pluginKey, pluginSecret } = credential as { pluginKey?: string; pluginSecret?: string }
    if (credential.keyHash === undefined && pluginKey === undefined)
      throw invalid(`${path}/keyHash`, 'needs keyHash or pluginKey')
    if (credential.secretHash === undefined && pluginSecret === undefined)
      throw invalid(`${path}/secretHash`, 'needs secretHash or pluginSecret')
    if (pluginKey !== undefined) {
      credential.keyHash ??= sha256Hex(pluginKey)
      credential.keyPreview ??= previewOf(pluginKey)
    }
    if (pluginSecret !== undefined) {
      credential.secretHash ??= sha256Hex(pluginSecret)
      credential.secretPreview ??= previewOf(pluginSecret)
    }
    // Sealed only when the author left sealedMaterial out; an explicit null means "unrecoverable".
    if (credential.sealedMaterial === undefined && pluginKey !== undefined && pluginSecret !== undefined && secretBox) {
      credential.sealedMaterial = secretBox.seal(JSON.stringify({ pluginKey, pluginSecret }))
      credential.sealedKeyId = secretBox.keyId
    }
    if (credential.keyPreview === undefined) throw invalid(`${path}/keyPreview`, 'is required with keyHash')
    if (credential.secretPreview === undefined) throw invalid(`${path}/secretPreview`, 'is required with secretHash')
    credential.seq ??= index + 1
    const product = products.get(credential.productId)
    credential.appId ??= product?.appId ?? ''
    delete credential.pluginKey
    delete credential.pluginSecret
  })
}

/** Fills a reseller order item's claim token hash and sealed copy from a plain `claimToken`; never keeps the plain value. */
function normaliseClaimTokens(document: ScenarioDocument, secretBox: SecretBox | null): void {
  ;(document.orderItems ?? []).forEach((item, index) => {
    const { claimToken } = item as { claimToken?: string }
    if (claimToken === undefined) return
    const hash = sha256Hex(claimToken)
    if (item.claimTokenHash !== undefined && item.claimTokenHash !== null && item.claimTokenHash !== hash)
      throw invalid(`/orderItems/${index}/claimTokenHash`, 'is not the hash of its claimToken')
    item.claimTokenHash = hash
    // Sealed only when the author left sealedClaimToken out; an explicit null means "not kept".
    if (item.sealedClaimToken === undefined && secretBox) item.sealedClaimToken = secretBox.seal(claimToken)
    delete item.claimToken
  })
}

/** Duplicate ids and references to rows that are not in the document, with the path of the first. */
function checkReferences(document: ScenarioDocument): void {
  const ids = new Map<SectionName, Set<unknown>>()
  for (const spec of SECTIONS) {
    if (!spec.idField) continue
    const seen = new Set<unknown>()
    ;(document[spec.section] ?? []).forEach((row, index) => {
      const value = row[spec.idField as string]
      if (seen.has(value)) throw invalid(`/${spec.section}/${index}/${spec.idField}`, `repeats the id ${String(value)}`)
      seen.add(value)
    })
    ids.set(spec.section, seen)
  }
  for (const spec of SECTIONS) {
    ;(document[spec.section] ?? []).forEach((row, index) => {
      for (const column of spec.columns) {
        const value = row[column.field]
        if (column.ref && value !== undefined && value !== null && !ids.get(column.ref)?.has(value)) {
          throw invalid(
            `/${spec.section}/${index}/${column.field}`,
            `names no ${column.ref} entry with id ${String(value)}`
          )
        }
      }
    })
  }
}

/**
 * A document as the import will write it: checked against the schema, the values and the
 * references, migrated to the current version, plain credentials turned into hashes. Throws
 * the 400 naming the path of the first error; nothing has changed then.
 */
export function checkScenario(input: unknown, secretBox: SecretBox | null): ScenarioDocument {
  const schemaError = firstSchemaError(input)
  if (schemaError) throw schemaError
  const document = migrateScenario(structuredClone(input) as ScenarioDocument)
  checkValues(document)
  normaliseCredentials(document, secretBox)
  normaliseClaimTokens(document, secretBox)
  checkReferences(document)
  if (document.clock?.offsetS !== undefined && document.clock.now !== undefined)
    throw invalid('/clock', 'has both offsetS and now; give one')
  return document
}

/**
 * Version 1 held the data only. Its files mean what they meant: the data, with the clock at
 * the system time and no fault rules (what a fresh emulator has); settings stay as they are.
 */
function migrateScenario(document: ScenarioDocument): ScenarioDocument {
  if (document.version === 1) return { ...document, version: SCENARIO_VERSION, clock: {}, faults: [] }
  return document
}

/** A row of a section as its table stores it: its values in column order. */
export function columnValues(spec: SectionSpec, row: ScenarioRow): unknown[] {
  return spec.columns.map((column) => {
    const value = row[column.field] ?? column.default ?? null
    if (column.type === 'boolean') return value ? 1 : 0
    if (column.type === 'json') return value === null ? null : JSON.stringify(value)
    return value
  })
}

/** Why SQLite refused a row of a scenario (its error's message), in the words of an import's error. */
export function describeSqliteError(message: string): string {
  if (message.includes('UNIQUE')) {
    if (message.includes('product_credentials.product_id')) return 'is a second active credential for one product'
    if (message.includes('activations.license_id')) return 'is a second live activation of one instance'
    return `repeats a value that must be unique (${message.replace(/^UNIQUE constraint failed: /, '')})`
  }
  if (message.includes('CHECK')) return 'has a value outside the allowed range'
  return 'cannot be stored'
}

/**
 * Replaces every table of the store with a checked document, atomically: a document SQLite refuses
 * changes nothing and is reported with the path of its first error. The request log (a section
 * `onRequest`, in a file of its own) is left to the caller.
 */
export function writeScenario(store: Store, document: ScenarioDocument, secretBox: SecretBox | null): ImportCounts {
  const counts = {} as ImportCounts
  const tables = createScenarioRepository(store)
  store.transaction(() => {
    // Rows reference each other both ways (credential rotation links); check keys at commit.
    tables.deferForeignKeys()
    tables.emptyDataTables()
    for (const spec of SECTIONS) {
      if (spec.onRequest) continue
      const rows = document[spec.section] ?? []
      const insert = tables.inserterOf(spec)
      rows.forEach((row, index) => {
        try {
          insert(columnValues(spec, row))
        } catch (error) {
          throw invalid(`/${spec.section}/${index}`, describeSqliteError((error as Error).message ?? ''))
        }
      })
      counts[spec.section] = rows.length
    }
    tables.addMissingStorefronts()
    if (tables.brokenReferences() > 0) throw invalid('/', 'rows reference rows that do not exist')
    labelSealedByCurrentKey(createCredentialRepository(store), secretBox)
  })
  return counts
}

/** Empties every data table in one transaction. Signing keys and settings stay. */
export function resetState(store: Store): void {
  const tables = createScenarioRepository(store)
  store.transaction(() => tables.emptyDataTables())
}
