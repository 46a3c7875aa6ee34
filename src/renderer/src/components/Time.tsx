import { formatDateTime, formatRelative } from '../format/date'
import { useEmulatorNow } from './useNow'

/** "3 minutes ago", with the exact time as a tooltip and in the datetime attribute. */
export function RelativeTime({ value, empty = 'never' }: { value: string | null | undefined; empty?: string }) {
  const now = useEmulatorNow()
  if (!value) return <span className="muted">{empty}</span>
  return (
    <time dateTime={value} title={formatDateTime(value, { seconds: true })}>
      {formatRelative(value, now)}
    </time>
  )
}

/** The exact time, with the relative one as a tooltip. */
export function DateTime({ value, empty = '—', seconds = false }: { value: string | null | undefined; empty?: string; seconds?: boolean }) {
  const now = useEmulatorNow()
  if (!value) return <span className="muted">{empty}</span>
  return (
    <time dateTime={value} title={formatRelative(value, now)}>
      {formatDateTime(value, { seconds })}
    </time>
  )
}
