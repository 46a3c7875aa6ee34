import { formatTimeOfDay } from '../format/date'
import { useConnection } from '../stores/connection'
import { useServerLink } from '../stores/server-link'

/** The sidebar's line about the server: serving, reconnecting, or disconnected since when. */
export function ServerPill() {
  const info = useConnection((state) => state.info.data)
  const state = useServerLink((link) => link.state)
  const since = useServerLink((link) => link.since)
  const host = info ? new URL(info.baseUrl).host : '…'
  const at = since === null ? null : new Date(since).toISOString()
  return (
    <p className="server-pill" title={info?.baseUrl} data-testid="server-pill" data-state={state}>
      <span
        className={`status-dot status-dot--${state === 'connected' ? 'ok' : state === 'reconnecting' ? 'warn' : 'down'}`}
        aria-hidden="true"
      />
      {state === 'connected' ? (
        <span className="server-pill__text">
          Serving <span className="mono">{host}</span>
        </span>
      ) : state === 'reconnecting' ? (
        <span className="server-pill__text">
          Reconnecting to <span className="mono">{host}</span>…
        </span>
      ) : (
        <span className="server-pill__text">
          Disconnected since <time dateTime={at ?? undefined}>{formatTimeOfDay(at)}</time>
        </span>
      )}
    </p>
  )
}
