import { Type } from 'typebox'
import { Ok } from './common'

/** The emulator clock and the built-in scenarios: what the Scenarios screen moves and loads. */

export const ClockStateSchema = Type.Object({
  now: Type.String({ format: 'date-time', description: "The emulator's now." }),
  offsetS: Type.Number({ description: 'Seconds the emulator clock runs ahead of (or behind) the system clock.' }),
  systemNow: Type.String({ format: 'date-time' })
})

export const ClockResponse = Ok(ClockStateSchema)

export const PresetSchema = Type.Object({ name: Type.String(), title: Type.String(), description: Type.String() })
