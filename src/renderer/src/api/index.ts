import { SOURCE_HEADER } from '../../../shared/contract/inspector'
import { createControlApi } from './control'
import { createHttpClient } from './http'
import type { FetchLike } from './http'
import { createManagementApi } from './management'
import type { DeveloperTokenSource } from './management'
import { createServiceApi } from './service'

export { ApiError, isApiError, toApiError } from './errors'
export type { Exchange, FetchLike, HttpClient } from './http'

/** Every client of one emulator: the control plane (admin token) and the service API (no admin token). */
export function createApi(options: { baseUrl: string; adminToken: string; fetch?: FetchLike | undefined }) {
  const control = createControlApi(
    createHttpClient({
      baseUrl: options.baseUrl,
      fetch: options.fetch,
      headers: { 'x-emulator-token': options.adminToken }
    }),
    options.adminToken
  )
  // The service API never sees the admin token: it is called as a dashboard, plugin or customer would.
  // Each call names its source, so the request inspector can set the UI's own calls apart from a plugin's.
  const serviceHttp = createHttpClient({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    headers: { [SOURCE_HEADER]: 'ui' }
  })
  const testerHttp = createHttpClient({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    headers: { [SOURCE_HEADER]: 'tester' }
  })
  return {
    baseUrl: serviceHttp.baseUrl,
    control,
    service: createServiceApi(serviceHttp),
    /** The service API as the connection tester calls it, standing in for a plugin. */
    tester: createServiceApi(testerHttp),
    management: (session: DeveloperTokenSource) => createManagementApi(serviceHttp, session)
  }
}

export type Api = ReturnType<typeof createApi>
