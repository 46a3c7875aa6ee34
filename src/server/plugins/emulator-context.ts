import fp from 'fastify-plugin'

import type { EmulatorCore } from '../../core/emulator-core'

/** Settings every surface reads at request time; header prefix and strict mode change at runtime (core.settings). */
export interface ServerSettings {
  readonly headerPrefix: string
  readonly strict: boolean
  readonly adminToken: string
  trustedOrigins: readonly string[]
  version: string
  startedAt: number
}

declare module 'fastify' {
  interface FastifyInstance {
    core: EmulatorCore
    settings: ServerSettings
  }
}

/** Makes the domain services and the settings available to every encapsulated surface. */
export const emulatorContext = fp<{ core: EmulatorCore; settings: ServerSettings }>(
  async (app, { core, settings }) => {
    app.decorate('core', core)
    app.decorate('settings', settings)
  },
  { name: 'emulator-context' }
)
