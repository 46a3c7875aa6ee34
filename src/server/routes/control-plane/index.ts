import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { controlPlaneGuard } from './guard'
import { healthRoutes } from './health'
import { developerControlRoutes } from './developers'
import { productControlRoutes } from './products'
import { fileControlRoutes } from './files'
import { customerControlRoutes } from './customers'
import { commerceControlRoutes } from './commerce'
import { faultControlRoutes } from './faults'
import { stateControlRoutes } from './state'
import { clockControlRoutes } from './clock'
import { infoControlRoutes } from './info'
import { requestControlRoutes } from './requests'
import { eventControlRoutes } from './events'

/** The emulator control plane under /_emulator (docs/api.md section 6): not part of the service. */
export const controlPlaneRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', controlPlaneGuard(app.settings))
  await app.register(healthRoutes)
  await app.register(developerControlRoutes)
  await app.register(productControlRoutes)
  await app.register(fileControlRoutes)
  await app.register(customerControlRoutes)
  await app.register(commerceControlRoutes)
  await app.register(faultControlRoutes)
  await app.register(stateControlRoutes)
  await app.register(clockControlRoutes)
  await app.register(infoControlRoutes)
  await app.register(requestControlRoutes)
  await app.register(eventControlRoutes)
}
