import { Type } from 'typebox'
import type { TSchema } from 'typebox'
import { SECTIONS } from './scenario-tables'
import type { ColumnSpec, SectionSpec } from './scenario-tables'

export const SCENARIO_FORMAT = 'plugin-license-emulator/scenario'
export const SCENARIO_VERSION = 1

/** Credential fields an author may leave out when writing the plain key and secret instead. */
const DERIVABLE_CREDENTIAL_FIELDS = new Set(['seq', 'appId', 'keyHash', 'secretHash', 'keyPreview', 'secretPreview'])

function columnSchema(column: ColumnSpec): TSchema {
  const base =
    column.enum !== undefined
      ? Type.Union(column.enum.map((value) => Type.Literal(value)))
      : column.type === 'integer'
        ? Type.Integer({ minimum: 0 })
        : column.type === 'boolean'
          ? Type.Boolean()
          : Type.String({ maxLength: 10_000 })
  return column.nullable ? Type.Union([base, Type.Null()]) : base
}

function sectionSchema(spec: SectionSpec): TSchema {
  const properties: Record<string, TSchema> = {}
  for (const column of spec.columns) {
    const optional = column.nullable === true || column.default !== undefined || (spec.section === 'credentials' && DERIVABLE_CREDENTIAL_FIELDS.has(column.field))
    properties[column.field] = optional ? Type.Optional(columnSchema(column)) : columnSchema(column)
  }
  if (spec.section === 'credentials') {
    // An author may write a credential in plain; the import stores only hashes (and a sealed copy).
    properties.pluginKey = Type.Optional(Type.String({ pattern: '^pk_[A-Za-z0-9]{16,}$', description: 'Plain plugin key (author-written scenarios only; never exported).' }))
    properties.pluginSecret = Type.Optional(Type.String({ pattern: '^sk_[A-Za-z0-9]{16,}$', description: 'Plain plugin secret (author-written scenarios only; never exported).' }))
  }
  return Type.Object(properties, { additionalProperties: false })
}

const sections: Record<string, TSchema> = {}
for (const spec of SECTIONS) sections[spec.section] = Type.Optional(Type.Array(sectionSchema(spec), { maxItems: 2_000_000 }))

/** One versioned JSON document holding the emulator's whole state. */
export const ScenarioDocumentSchema = Type.Object(
  {
    $schema: Type.Optional(Type.String()),
    format: Type.Literal(SCENARIO_FORMAT),
    version: Type.Literal(SCENARIO_VERSION),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    ...sections
  },
  { additionalProperties: false, title: 'Plugin License Emulator scenario', $id: 'https://plugin-license-emulator.local/scenario.schema.json' }
)

export type ScenarioRow = Record<string, string | number | boolean | null>
export interface ScenarioDocument {
  $schema?: string
  format: typeof SCENARIO_FORMAT
  version: typeof SCENARIO_VERSION
  name?: string
  description?: string
  [section: string]: ScenarioRow[] | string | number | undefined
}

/** The JSON Schema as shipped in resources/scenario.schema.json. */
export function scenarioJsonSchema(): string {
  return `${JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...ScenarioDocumentSchema }, null, 2)}\n`
}
