import { Type } from 'typebox'

import { Ok } from './common'

/** What the Overview screen shows: liveness, where things are, how they are set, how much there is. */

/** Whether writes currently fail for storage: the UI's banner (docs/api.md section 1, "Storage faults"). */
export const StorageStateSchema = Type.Object({
  writable: Type.Boolean({
    description: 'false while writes fail for storage; true again after the next write that succeeds.'
  }),
  error: Type.Optional(
    Type.Union([Type.Literal('STORAGE_FULL'), Type.Literal('STORAGE_READ_ONLY'), Type.Literal('STORAGE_BUSY')])
  ),
  message: Type.Optional(Type.String()),
  since: Type.Optional(Type.String({ format: 'date-time' })),
  restartNeeded: Type.Optional(
    Type.Literal(true, {
      description: 'Only a restart ends it: the database file was deleted, moved or replaced while the emulator ran.'
    })
  )
})

export const HealthResponse = Type.Object({
  ok: Type.Literal(true),
  version: Type.String(),
  uptimeS: Type.Number(),
  storage: StorageStateSchema
})

export const ServerSettingsSchema = Type.Object({
  headerPrefix: Type.String(),
  strict: Type.Boolean(),
  subscriptionGraceDays: Type.Number({
    description: 'How long a past_due subscription keeps access after a failed payment, in days (default 7).'
  })
})

/** A change of runtime settings (PUT /_emulator/settings, and a scenario's `settings`): the fields given change. */
export const RuntimeSettingsPatchSchema = Type.Object(
  {
    headerPrefix: Type.Optional(
      Type.String({ pattern: '^[a-zA-Z0-9][a-zA-Z0-9-]{0,31}$', description: 'The `svc` in `x-svc-app-id`.' })
    ),
    strict: Type.Optional(Type.Boolean({ description: 'Hide debugging details as a production service does.' })),
    subscriptionGraceDays: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 365,
        description: 'Days a past_due subscription keeps access after a failed payment (fractions allowed).'
      })
    )
  },
  { additionalProperties: false }
)

export const SettingsResponse = Type.Object({ ok: Type.Literal(true), settings: ServerSettingsSchema })

export const CountsSchema = Type.Object({
  developers: Type.Integer(),
  products: Type.Integer(),
  credentials: Type.Integer(),
  activeCredentials: Type.Integer(),
  customers: Type.Integer(),
  licenses: Type.Integer(),
  activations: Type.Integer(),
  requests: Type.Integer({ description: 'Every request in the log, whoever sent it.' }),
  uiRequests: Type.Integer({
    description:
      "Of those, the UI's own calls (`source: ui`), which the inspector hides unless asked: `requests - uiRequests` is what it lists by default."
  })
})

export const ServerInfoSchema = Type.Object({
  version: Type.String(),
  baseUrl: Type.String(),
  databasePath: Type.String(),
  hasRuntimeKey: Type.Boolean(),
  credentialHeaders: Type.Object({ appId: Type.String(), pluginKey: Type.String(), pluginSecret: Type.String() }),
  settings: ServerSettingsSchema,
  counts: CountsSchema
})

export const ServerInfoResponse = Ok(ServerInfoSchema)
