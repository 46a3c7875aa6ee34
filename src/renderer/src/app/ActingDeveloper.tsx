import { useId } from 'react'

import { Badge } from '../components/Badge'
import { Skeleton } from '../components/Skeleton'
import { buildHash } from '../navigation/routes'
import { selectActingDeveloper, useDevelopers } from '../stores/developers'

/** Who the UI acts as on the management API, switchable from every screen. */
export function ActingDeveloper() {
  const developers = useDevelopers((state) => state.developers)
  const actingId = useDevelopers((state) => state.actingId)
  const acting = useDevelopers(selectActingDeveloper)
  const setActing = useDevelopers((state) => state.setActing)
  const id = useId()

  if (developers.data === null) {
    return (
      <div className="acting" aria-hidden="true">
        <Skeleton width={220} height={32} radius={6} />
      </div>
    )
  }
  if (developers.data.length === 0) {
    return (
      <div className="acting">
        <a className="btn btn--secondary btn--sm" href={buildHash('developers')}>
          Create a developer
        </a>
      </div>
    )
  }
  return (
    <div className="acting">
      <label htmlFor={id} className="acting__label">
        Acting as
      </label>
      <select
        id={id}
        className="input input--select acting__select"
        value={actingId ?? ''}
        onChange={(event) => setActing(event.target.value)}
      >
        {developers.data.map((developer) => (
          <option key={developer.id} value={developer.id}>
            {developer.name ?? developer.email}
            {developer.role === 'admin' ? ' (admin)' : ''}
          </option>
        ))}
      </select>
      {acting?.role === 'admin' ? <Badge tone="accent">admin</Badge> : null}
    </div>
  )
}
