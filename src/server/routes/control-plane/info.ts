import { Type } from 'typebox'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { errorResponses } from '../../../shared/schemas/common'
import { ServerInfoResponse, SettingsResponse } from '../../../shared/schemas/server-info'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

/** What the Overview screen shows: where things are, how they are set, how much there is. */
export const infoControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const currentSettings = () => ({
    headerPrefix: app.settings.headerPrefix,
    strict: app.settings.strict,
    subscriptionGraceDays: app.core.grace.days()
  })

  app.get(
    '/info',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags: ['Emulator'],
        summary: 'Server status: base URL, settings, database location, runtime key, counts',
        response: { 200: ServerInfoResponse, ...errorResponses }
      }
    },
    async () => {
      const prefix = app.settings.headerPrefix
      return {
        ok: true as const,
        version: app.settings.version,
        baseUrl: app.core.apiBaseUrl(),
        databasePath: app.core.databasePath,
        hasRuntimeKey: app.core.hasRuntimeKey,
        credentialHeaders: { appId: `x-${prefix}-app-id`, pluginKey: `x-${prefix}-plugin-key`, pluginSecret: `x-${prefix}-plugin-secret` },
        settings: currentSettings(),
        counts: app.core.counts()
      }
    }
  )

  app.get(
    '/settings',
    { config: { tokens: ADMIN_TOKEN }, schema: { tags: ['Emulator'], summary: 'Runtime settings', response: { 200: SettingsResponse, ...errorResponses } } },
    async () => ({
      ok: true as const,
      settings: currentSettings()
    })
  )

  app.put(
    '/settings',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags: ['Emulator'],
        summary: 'Change the credential header prefix, strict mode or the subscription grace period at runtime (until restart)',
        body: Type.Object(
          {
            headerPrefix: Type.Optional(Type.String({ pattern: '^[a-zA-Z0-9][a-zA-Z0-9-]{0,31}$' })),
            strict: Type.Optional(Type.Boolean()),
            subscriptionGraceDays: Type.Optional(
              Type.Number({ minimum: 0, maximum: 365, description: 'Days a past_due subscription keeps access after a failed payment (fractions allowed).' })
            )
          },
          { additionalProperties: false }
        ),
        response: { 200: SettingsResponse, ...errorResponses }
      }
    },
    async (request) => {
      if (request.body.headerPrefix !== undefined) app.settings.headerPrefix = request.body.headerPrefix.toLowerCase()
      if (request.body.strict !== undefined) app.settings.strict = request.body.strict
      if (request.body.subscriptionGraceDays !== undefined) app.core.grace.set(request.body.subscriptionGraceDays)
      return { ok: true as const, settings: currentSettings() }
    }
  )
}
