import { useState } from 'react'

import { Button } from '../components/Button'
import { useRealNow } from '../components/useNow'
import { formatRelative, formatTimeOfDay } from '../format/date'
import { useConnection } from '../stores/connection'
import { useServerLink } from '../stores/server-link'
import { CHECK_EVERY_MS, checkServerNow } from './server-watch'

/** On every screen while the emulator does not answer: since when, and that it keeps trying. */
export function ConnectionBanner() {
  const state = useServerLink((link) => link.state)
  const since = useServerLink((link) => link.since)
  const baseUrl = useConnection((connection) => connection.baseUrl)
  const now = useRealNow()
  const [checking, setChecking] = useState(false)
  if (state === 'connected') return null
  const at = since === null ? null : new Date(since).toISOString()
  const host = baseUrl ? new URL(baseUrl).host : 'the emulator'
  return (
    <div className={`connection-banner connection-banner--${state}`} role="alert" data-testid="connection-banner">
      <span className={`status-dot status-dot--${state === 'reconnecting' ? 'warn' : 'down'}`} aria-hidden="true" />
      <p className="connection-banner__text">
        <strong>{state === 'reconnecting' ? 'Reconnecting to the emulator…' : 'Disconnected'}</strong>
        {at ? (
          <>
            {' '}
            since <time dateTime={at}>{formatTimeOfDay(at)}</time> ({formatRelative(at, Math.max(now, since ?? now))},
            system clock)
          </>
        ) : null}
        . <span className="mono">{host}</span> does not answer; retrying every {CHECK_EVERY_MS / 1000} s. Actions that
        need the server are disabled until it is back.
      </p>
      <Button
        size="sm"
        icon="refresh"
        needsServer={false}
        busy={checking}
        onClick={() => {
          setChecking(true)
          void checkServerNow().finally(() => setChecking(false))
        }}
      >
        Try now
      </Button>
    </div>
  )
}
