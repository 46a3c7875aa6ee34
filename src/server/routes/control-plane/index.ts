import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'

import { clockControlRoutes } from './clock'
import { commerceControlRoutes } from './commerce'
import { customerControlRoutes } from './customers'
import { developerControlRoutes } from './developers'
import { driftControlRoutes } from './drift'
import { eventControlRoutes } from './events'
import { faultControlRoutes } from './faults'
import { fileControlRoutes } from './files'
import { controlPlaneGuard } from './guard'
import { healthRoutes } from './health'
import { infoControlRoutes } from './info'
import { productControlRoutes } from './products'
import { recordingControlRoutes } from './recordings'
import { requestControlRoutes } from './requests'
import { stateControlRoutes } from './state'
import { upstreamControlRoutes } from './upstream'

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
  await app.register(upstreamControlRoutes)
  await app.register(driftControlRoutes)
  await app.register(recordingControlRoutes)
}
