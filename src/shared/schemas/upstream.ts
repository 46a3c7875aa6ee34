import { Type } from 'typebox'

import { Nullable } from './common'

const Routes = Type.Array(
  Type.String({
    minLength: 1,
    maxLength: 500,
    pattern: '^[/*][^\\s?#]*$',
    description: "A path pattern in the fault rules' syntax: `*` within one segment, `**` across segments."
  }),
  { maxItems: 50 }
)

export const UpstreamSettingSchema = Type.Object({
  url: Nullable(Type.String({ description: "The upstream's base URL (http or https); null: forwarding is off." })),
  routes: Type.Array(Type.String(), { description: 'The path patterns forwarded while url is set.' })
})

export const UpstreamBody = Type.Object(
  {
    url: Nullable(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description: 'http or https base URL of the real platform; null turns forwarding off.'
      })
    ),
    routes: Type.Optional(
      Nullable({
        ...Routes,
        description:
          'What is forwarded; absent, null or empty: `/api/**` and `/.well-known/**`. The control plane, ' +
          '/openapi.json and the UI are never forwarded.'
      })
    )
  },
  { additionalProperties: false }
)

export const UpstreamResponse = Type.Object({ ok: Type.Literal(true), upstream: UpstreamSettingSchema })
