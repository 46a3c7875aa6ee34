import { useCallback, useEffect, useState } from 'react'
import type { Static } from 'typebox'

import type { StorageStateSchema } from '../../../shared/schemas/server-info'
import { Button } from '../components/Button'
import { formatTimeOfDay } from '../format/date'
import { useConnection } from '../stores/connection'

type StorageState = Static<typeof StorageStateSchema>

/** How often the banner asks health whether writes fail for storage. */
export const STORAGE_CHECK_EVERY_MS = 3000

/** The file name alone: the banner's headline ("emulator.db"); the server's message names the whole path. */
function fileNameIn(message: string): string {
  const match = /([^\s/\\]+\.db)\b/.exec(message)
  return match?.[1] ?? 'the database'
}

function headline(state: StorageState): string {
  const file = fileNameIn(state.message ?? '')
  if (state.restartNeeded)
    return `${file} was deleted, moved or replaced: export what it holds, then restart the emulator.`
  switch (state.error) {
    case 'STORAGE_FULL':
      return `The disk holding ${file} is full: free space, then Try again.`
    case 'STORAGE_READ_ONLY':
      return `${file} cannot be written: make it writable, then Try again.`
    default:
      return `Another program holds the write lock of ${file}: end its transaction, then Try again.`
  }
}

/**
 * On every screen while writes fail for storage (docs/api.md section 1, "Storage faults"): the
 * server's health says so from the first refused write until the next one that succeeds, and
 * the banner follows it (checked every few seconds, and at once on "Try again").
 */
export function StorageBanner() {
  const api = useConnection((connection) => connection.api)
  const [state, setState] = useState<StorageState>({ writable: true })
  const [checking, setChecking] = useState(false)

  const check = useCallback(async () => {
    if (!api) return
    try {
      const answer = await api.control.health()
      setState(answer.storage ?? { writable: true })
    } catch {
      // The connection banner speaks for a server that does not answer.
    }
  }, [api])

  useEffect(() => {
    // The first check at once (from a timer: the answer's state is set outside the effect), then every few seconds.
    const first = setTimeout(() => void check(), 0)
    const timer = setInterval(() => void check(), STORAGE_CHECK_EVERY_MS)
    return () => {
      clearTimeout(first)
      clearInterval(timer)
    }
  }, [check])

  if (state.writable) return null
  return (
    <div className="connection-banner connection-banner--disconnected" role="alert" data-testid="storage-banner">
      <span className="status-dot status-dot--down" aria-hidden="true" />
      <p className="connection-banner__text">
        <strong>{headline(state)}</strong>{' '}
        {state.since ? (
          <>
            Writes fail since <time dateTime={state.since}>{formatTimeOfDay(state.since)}</time>.{' '}
          </>
        ) : null}
        <span className="mono">{state.message}</span>{' '}
        {state.restartNeeded
          ? 'Reads still work until the emulator stops.'
          : 'Reads still work; this clears after the next change that is saved.'}
      </p>
      {state.restartNeeded ? null : (
        <Button
          size="sm"
          icon="refresh"
          busy={checking}
          onClick={() => {
            setChecking(true)
            void check().finally(() => setChecking(false))
          }}
        >
          Try again
        </Button>
      )}
    </div>
  )
}
