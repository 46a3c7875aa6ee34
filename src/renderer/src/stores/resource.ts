import { toApiError } from '../api/errors'
import type { ApiError } from '../api/errors'

/**
 * Data a screen loads: what it holds, and whether a load is running or failed. A reload keeps
 * the previous data (no skeleton flash); a screen shows its skeleton only while `data` is null.
 */
export interface Resource<T> {
  status: 'idle' | 'loading' | 'ready' | 'error'
  data: T | null
  error: ApiError | null
}

export const idle = <T>(): Resource<T> => ({ status: 'idle', data: null, error: null })
export const loading = <T>(previous: Resource<T> | undefined): Resource<T> => ({ status: 'loading', data: previous?.data ?? null, error: null })
export const ready = <T>(data: T): Resource<T> => ({ status: 'ready', data, error: null })
export const failed = <T>(previous: Resource<T> | undefined, error: unknown): Resource<T> => ({
  status: 'error',
  data: previous?.data ?? null,
  error: toApiError(error)
})

/** True while nothing has arrived yet: the moment for a skeleton. */
export const isFirstLoad = (resource: Resource<unknown>) => resource.data === null && (resource.status === 'loading' || resource.status === 'idle')
