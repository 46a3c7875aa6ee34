import { useCallback, useState } from 'react'

import { toApiError } from '../api/errors'
import type { ApiError } from '../api/errors'

export interface ActionState<Name extends string> {
  /** The action running now (its name, for the button that shows it busy), or null. */
  busy: Name | null
  /** The last action's failure, as the server said it; cleared when the next one starts. */
  error: ApiError | null
  /** Runs one action: busy while it runs, a failure kept in `error` (never thrown). Resolves with the failure, null on success. */
  run(name: Name, action: () => Promise<unknown>): Promise<ApiError | null>
  /** Shows a failure found before anything ran (a file that is not JSON, say). */
  fail(cause: unknown): void
  /** Forgets the busy state and the error (a dialog opened again). */
  reset(): void
}

/** The busy and error state of a component's actions: what every form and button row needs, written once. */
export function useAction<Name extends string = string>(): ActionState<Name> {
  const [busy, setBusy] = useState<Name | null>(null)
  const [error, setError] = useState<ApiError | null>(null)
  const run = useCallback(async (name: Name, action: () => Promise<unknown>) => {
    setBusy(name)
    setError(null)
    try {
      await action()
      return null
    } catch (cause) {
      const failure = toApiError(cause)
      setError(failure)
      return failure
    } finally {
      setBusy(null)
    }
  }, [])
  const fail = useCallback((cause: unknown) => setError(toApiError(cause)), [])
  const reset = useCallback(() => {
    setBusy(null)
    setError(null)
  }, [])
  return { busy, error, run, fail, reset }
}
