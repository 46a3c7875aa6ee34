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
export const loading = <T>(previous: Resource<T> | undefined): Resource<T> => ({
  status: 'loading',
  data: previous?.data ?? null,
  error: null
})
export const ready = <T>(data: T): Resource<T> => ({ status: 'ready', data, error: null })
export const failed = <T>(previous: Resource<T> | undefined, error: unknown): Resource<T> => ({
  status: 'error',
  data: previous?.data ?? null,
  error: toApiError(error)
})

/** True while nothing has arrived yet: the moment for a skeleton. */
export const isFirstLoad = (resource: Resource<unknown>) =>
  resource.data === null && (resource.status === 'loading' || resource.status === 'idle')

/** Failed with nothing to show: the moment for an error state instead of the content. */
export const failedWithoutData = (resource: Resource<unknown>) => resource.status === 'error' && resource.data === null

/** The data type a Resource field holds. */
type DataOf<R> = R extends Resource<infer T> ? T : never
/** The keys of a store's state that hold a Resource. */
type ResourceKeys<S> = { [K in keyof S]: S[K] extends Resource<unknown> ? K : never }[keyof S]

/**
 * Loads one Resource field of a zustand store: loading (keeping what it had), then ready or
 * failed. Every screen's load goes through here, so each one behaves the same.
 *
 * Only the load asked for last writes its answer. Answers can arrive out of order (a slow first
 * load, a quick reload after a save); one whose loading marker has since been replaced, by a newer
 * load or by a store action that set the field itself, is older than what the field holds and is
 * dropped.
 */
export async function loadInto<S, K extends ResourceKeys<S>>(
  store: { get: () => S; set: (partial: Partial<S>) => void },
  key: K,
  load: () => Promise<DataOf<S[K]>>
): Promise<void> {
  const current = () => store.get()[key] as Resource<DataOf<S[K]>>
  const marker = loading(current())
  store.set({ [key]: marker } as unknown as Partial<S>)
  try {
    const data = await load()
    if (current() === marker) store.set({ [key]: ready(data) } as unknown as Partial<S>)
  } catch (error) {
    if (current() === marker) store.set({ [key]: failed(current(), error) } as unknown as Partial<S>)
  }
}
