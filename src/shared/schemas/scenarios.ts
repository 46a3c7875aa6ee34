import { Type } from 'typebox'

import { MAX_CLOCK_OFFSET_S } from '../contract/clock'
import { Ok } from './common'
import { FaultRuleInputSchema } from './faults'

/** The emulator clock and the built-in scenarios: what the Scenarios screen moves and loads. */

export const ClockStateSchema = Type.Object({
  now: Type.String({ format: 'date-time', description: "The emulator's now." }),
  offsetS: Type.Number({ description: 'Seconds the emulator clock runs ahead of (or behind) the system clock.' }),
  systemNow: Type.String({ format: 'date-time' })
})

export const ClockResponse = Ok(ClockStateSchema)

export const PresetSchema = Type.Object({ name: Type.String(), title: Type.String(), description: Type.String() })

/** Move the clock: exactly one of `offsetS` (from the system time), `now` (absolute) or `advanceS` (from where it is). */
export const ClockMoveBody = Type.Object(
  {
    offsetS: Type.Optional(Type.Number({ minimum: -MAX_CLOCK_OFFSET_S, maximum: MAX_CLOCK_OFFSET_S })),
    now: Type.Optional(Type.String({ format: 'date-time' })),
    advanceS: Type.Optional(Type.Number({ minimum: -MAX_CLOCK_OFFSET_S, maximum: MAX_CLOCK_OFFSET_S }))
  },
  { additionalProperties: false }
)

// ---- State export, import and presets (/_emulator/state, /presets) ----------------------------

export const StateExportQuery = Type.Object(
  {
    includeRequests: Type.Optional(
      Type.Union([Type.Literal('1'), Type.Literal('0'), Type.Literal('true'), Type.Literal('false')], {
        description: 'Add the request log.'
      })
    )
  },
  { additionalProperties: false }
)
const ImportCounts = Type.Record(Type.String(), Type.Integer())
export const StateExportResponse = Type.Object({ ok: Type.Literal(true), state: Type.Unknown() })
export const StateImportResponse = Type.Object({ ok: Type.Literal(true), imported: ImportCounts })
/** POST /_emulator/state/preview: what a document holds, before it replaces the state. */
export const StatePreviewResponse = Type.Object({
  ok: Type.Literal(true),
  preview: Type.Object({
    counts: ImportCounts,
    clock: Type.Union([
      Type.Object({ offsetS: Type.Number({ description: 'From the system time (0: the system time).' }) }),
      Type.Object({ now: Type.String({ description: 'An absolute now.' }) })
    ]),
    faults: Type.Array(FaultRuleInputSchema, { description: 'The fault rules it puts in force, in order.' }),
    settings: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
      description: 'The settings it sets; null: they stay.'
    })
  })
})
export const ResetResponse = Type.Object({ ok: Type.Literal(true), reset: Type.Literal(true) })
export const PresetListResponse = Type.Object({ ok: Type.Literal(true), presets: Type.Array(PresetSchema) })
export const PresetParams = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false }
)
export const PresetLoadResponse = Type.Object({ ok: Type.Literal(true), preset: Type.String(), imported: ImportCounts })
/** The scenario document itself, or { "state": <document> } as the export answers it; core checks it (400 names the path). */
export const StateImportBody = Type.Unknown()
