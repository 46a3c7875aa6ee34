import { Type } from 'typebox'
import type { TSchema } from 'typebox'

import { MAX_CLOCK_OFFSET_S } from '../../shared/contract/clock'
import { FAULT_LIMITS } from '../../shared/contract/faults'
import { FaultRuleInputSchema } from '../../shared/schemas/faults'
import { RuntimeSettingsPatchSchema } from '../../shared/schemas/server-info'
import type { FaultRuleInput } from '../faults/fault-rules'
import type { RuntimeSettingsValues } from '../settings/runtime-settings'
import { MAX_INTEGER, SECTIONS } from './scenario-tables'
import type { ColumnSpec, SectionName, SectionSpec } from './scenario-tables'

export const SCENARIO_FORMAT = 'plugin-license-emulator/scenario'
/**
 * 2: the clock, the settings, the fault rules, the credential audit trail, the connection
 * records and (on request) the request log. Version 1 files (data only) still import.
 */
export const SCENARIO_VERSION = 2
export const SCENARIO_VERSIONS = [1, 2] as const

/** Credential fields an author may leave out when writing the plain key and secret instead. */
const DERIVABLE_CREDENTIAL_FIELDS = new Set(['seq', 'appId', 'keyHash', 'secretHash', 'keyPreview', 'secretPreview'])

/**
 * RFC 3339 date-time with a time and an offset: what every answer's date-time field is, so a
 * date-only or free-text value is refused at import instead of breaking answers later. Calendar
 * validity (no 31 April) is checked by the import as well.
 */
export const DATE_TIME_PATTERN =
  '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])T([01]\\d|2[0-3]):[0-5]\\d:([0-5]\\d|60)(\\.\\d{1,9})?(Z|[+-]([01]\\d|2[0-3]):[0-5]\\d)$'
export const DATE_TIME_EXAMPLE = '2026-12-31T00:00:00Z'

/** What a column accepts, in words with an example: the import's 400 says it. */
export function allowedValues(column: ColumnSpec): string {
  const orNull = column.nullable ? ', or null' : ''
  if (column.enum !== undefined) return `one of ${column.enum.map((v) => JSON.stringify(v)).join(', ')}${orNull}`
  if (column.dateTime) return `an RFC 3339 date-time with a time and an offset, such as "${DATE_TIME_EXAMPLE}"${orNull}`
  if (column.type === 'integer') return `a whole number from 0 to ${column.maximum ?? MAX_INTEGER}, such as 2${orNull}`
  if (column.type === 'boolean') return `true or false${orNull}`
  if (column.type === 'number') return `a number, such as 12.5${orNull}`
  if (column.type === 'json') return `any JSON value${orNull}`
  return `a string of at most 10,000 characters${orNull}`
}

function columnSchema(column: ColumnSpec): TSchema {
  const base =
    column.enum !== undefined
      ? Type.Union(column.enum.map((value) => Type.Literal(value)))
      : column.type === 'json'
        ? Type.Unknown()
        : column.type === 'number'
          ? Type.Number({ minimum: 0 })
          : column.type === 'integer'
            ? Type.Integer({ minimum: 0, maximum: column.maximum ?? MAX_INTEGER })
            : column.type === 'boolean'
              ? Type.Boolean()
              : column.dateTime
                ? Type.String({
                    pattern: DATE_TIME_PATTERN,
                    description: `RFC 3339 date-time with a time and an offset, e.g. ${DATE_TIME_EXAMPLE}`
                  })
                : column.pattern
                  ? Type.String({ pattern: column.pattern.regex, description: column.pattern.description })
                  : Type.String({ maxLength: 10_000 })
  // Any JSON value already includes null: a union with null would only say it twice.
  return column.nullable && column.type !== 'json' ? Type.Union([base, Type.Null()]) : base
}

function sectionSchema(spec: SectionSpec): TSchema {
  const properties: Record<string, TSchema> = {}
  for (const column of spec.columns) {
    const optional =
      column.nullable === true ||
      column.default !== undefined ||
      (spec.section === 'credentials' && DERIVABLE_CREDENTIAL_FIELDS.has(column.field))
    properties[column.field] = optional ? Type.Optional(columnSchema(column)) : columnSchema(column)
  }
  if (spec.section === 'credentials') {
    // An author may write a credential in plain; the import stores only hashes (and a sealed copy).
    properties.pluginKey = Type.Optional(
      Type.String({
        pattern: '^pk_[A-Za-z0-9]{16,}$',
        description: 'Plain plugin key (author-written scenarios only; never exported).'
      })
    )
    properties.pluginSecret = Type.Optional(
      Type.String({
        pattern: '^sk_[A-Za-z0-9]{16,}$',
        description: 'Plain plugin secret (author-written scenarios only; never exported).'
      })
    )
  }
  if (spec.section === 'orderItems') {
    // A reseller order's claim token in plain: the import keeps its hash and a sealed copy.
    properties.claimToken = Type.Optional(
      Type.String({
        pattern: '^clm_[A-Za-z0-9]{16,}$',
        description: 'Plain claim token (author-written scenarios only; never exported).'
      })
    )
  }
  return Type.Object(properties, { additionalProperties: false })
}

const sections: Record<string, TSchema> = {}
for (const spec of SECTIONS)
  sections[spec.section] = Type.Optional(Type.Array(sectionSchema(spec), { maxItems: 2_000_000 }))

/** One versioned JSON document holding the emulator's whole state. */
export const ScenarioDocumentSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    format: Type.Literal(SCENARIO_FORMAT),
    version: Type.Union(
      SCENARIO_VERSIONS.map((version) => Type.Literal(version)),
      { description: `${SCENARIO_VERSION} is written; 1 (data only) still imports.` }
    ),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    clock: Type.Optional(
      Type.Object(
        {
          offsetS: Type.Optional(
            Type.Number({
              minimum: -MAX_CLOCK_OFFSET_S,
              maximum: MAX_CLOCK_OFFSET_S,
              description: 'Seconds the emulator clock runs ahead of the system clock (what export writes).'
            })
          ),
          now: Type.Optional(
            Type.String({
              pattern: DATE_TIME_PATTERN,
              description: 'Or an absolute instant the clock is set to at import (author-written; never both).'
            })
          )
        },
        { additionalProperties: false, description: 'The emulator clock. Left out: the clock runs at the system time.' }
      )
    ),
    settings: Type.Optional(
      Type.Object(RuntimeSettingsPatchSchema.properties, {
        additionalProperties: false,
        description: 'Runtime settings. Left out: they stay as they are.'
      })
    ),
    faults: Type.Optional(
      Type.Array(FaultRuleInputSchema, {
        maxItems: FAULT_LIMITS.maxRules,
        description: 'Fault rules, in the order they are checked. Left out: none.'
      })
    ),
    ...sections
  },
  {
    additionalProperties: false,
    title: 'Plugin License Emulator scenario',
    $id: 'https://plugin-license-emulator.local/scenario.schema.json'
  }
)

export type ScenarioRow = Record<string, unknown>
export type ScenarioDocument = {
  $schema?: string
  format: typeof SCENARIO_FORMAT
  version: (typeof SCENARIO_VERSIONS)[number]
  name?: string
  description?: string
  clock?: { offsetS?: number; now?: string }
  settings?: Partial<RuntimeSettingsValues>
  faults?: FaultRuleInput[]
} & { [section in SectionName]?: ScenarioRow[] }

/** The JSON Schema as shipped in resources/scenario.schema.json. */
export function scenarioJsonSchema(): string {
  return `${JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...ScenarioDocumentSchema }, null, 2)}\n`
}
