import { useEffect } from 'react'

import type { RequestSummary } from '../../api/types'
import { Badge } from '../../components/Badge'
import { driftOfEntry, useDrift } from '../../stores/drift'

/** In the request list: a mark on an exchange whose upstream answer showed drift. */
export function DriftMark({ entry }: { entry: RequestSummary }) {
  const drifted = useDrift((state) => state.drifted)
  const loadDrifted = useDrift((state) => state.loadDrifted)
  useEffect(() => {
    if (drifted.status === 'idle') void loadDrifted()
  }, [drifted.status, loadDrifted])
  const match = driftOfEntry(drifted.data, entry)
  if (!match) return null
  return (
    <span data-testid="request-drift-mark">
      <Badge
        tone={match.errors > 0 ? 'danger' : 'warning'}
        title={`The upstream's answer departs from the contract: ${match.findings} finding${match.findings === 1 ? '' : 's'} (see the Drift screen)`}
      >
        drift
      </Badge>
    </span>
  )
}
