import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { errorResponses } from '../../../shared/schemas/common'
import { RuntimeSettingsPatchSchema, ServerInfoResponse, SettingsResponse } from '../../../shared/schemas/server-info'
import { ADMIN_TOKEN } from '../../auth/route-tokens'

/** What the Overview screen shows: where things are, how they are set, how much there is. */
export const infoControlRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const currentSettings = () => app.core.settings.get()

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
        credentialHeaders: {
          appId: `x-${prefix}-app-id`,
          pluginKey: `x-${prefix}-plugin-key`,
          pluginSecret: `x-${prefix}-plugin-secret`
        },
        settings: currentSettings(),
        counts: app.core.counts()
      }
    }
  )

  app.get(
    '/settings',
    {
      config: { tokens: ADMIN_TOKEN },
      schema: {
        tags: ['Emulator'],
        summary: 'Runtime settings',
        response: { 200: SettingsResponse, ...errorResponses }
      }
    },
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
        summary:
          'Change the credential header prefix, strict mode or the subscription grace period at runtime (until restart)',
        body: RuntimeSettingsPatchSchema,
        response: { 200: SettingsResponse, ...errorResponses }
      }
    },
    async (request) => ({ ok: true as const, settings: app.core.settings.update(request.body) })
  )
}
