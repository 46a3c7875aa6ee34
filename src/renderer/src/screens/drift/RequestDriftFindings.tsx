import { useEffect, useState } from 'react'
import type { Static } from 'typebox'

import type { DriftEntryResponse } from '../../../../shared/schemas/drift'
import type { RequestEntry } from '../../api/types'
import { buildHash } from '../../navigation/routes'
import { requireApi } from '../../stores/connection'
import { useDrift } from '../../stores/drift'
import { FindingsList } from './FindingsTable'

type EntryDrift = Static<typeof DriftEntryResponse>['drift']

/** In the request detail pane: the drift findings of this exchange's upstream answer, when it had any. */
export function RequestDriftFindings({ entry }: { entry: RequestEntry }) {
  const [drift, setDrift] = useState<EntryDrift>(null)
  // Read again when the report changes (new findings, a clear).
  const version = useDrift((state) => state.drifted.data)
  useEffect(() => {
    let live = true
    requireApi()
      .control.requestDrift(entry.id)
      .then(
        (value) => live && setDrift(value),
        () => live && setDrift(null)
      )
    return () => {
      live = false
    }
  }, [entry.id, version])
  if (!drift || drift.findings.length === 0) return null
  return (
    <div className="drift-entry stack stack--tight" data-testid="request-drift">
      <h3 className="subheading">
        Drift: the upstream&apos;s answer departs from the contract{' '}
        <a className="small" href={buildHash('drift')}>
          (the drift report)
        </a>
      </h3>
      <FindingsList findings={drift.findings} label="Drift findings of this exchange" />
    </div>
  )
}
