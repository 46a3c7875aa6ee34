import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { controlPlaneGuard } from './guard'
import { healthRoutes } from './health'
import { developerControlRoutes } from './developers'
import { productControlRoutes } from './products'

/** The emulator control plane under /_emulator (decisions.md section 6): not part of the service. */
export const controlPlaneRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', controlPlaneGuard(app.settings))
  await app.register(healthRoutes)
  await app.register(developerControlRoutes)
  await app.register(productControlRoutes)
}
