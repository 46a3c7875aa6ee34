import { useEffect, useState } from 'react'

import { toApiError } from '../../api/errors'
import type { ApiError } from '../../api/errors'
import type { RequestSummary } from '../../api/types'
import { StatusBadge } from '../../components/Badge'
import { Card } from '../../components/Card'
import { EmptyState, ErrorState } from '../../components/States'
import { Table } from '../../components/Table'
import { RelativeTime } from '../../components/Time'
import { formatDuration } from '../../format/date'
import { buildHash } from '../../navigation/routes'
import { requireApi, useConnection } from '../../stores/connection'
import { WITHOUT_UI_CALLS } from '../../stores/requests'

const SHOWN = 6

/** The last few service API requests, refreshed with the counts: is a plugin talking to us? */
export function RecentRequests() {
  const requestCount = useConnection((state) => state.info.data?.counts.requests ?? null)
  const dataVersion = useConnection((state) => state.dataVersion)
  const [rows, setRows] = useState<RequestSummary[] | null>(null)
  const [error, setError] = useState<ApiError | null>(null)

  // Re-read whenever the log grew (the counts poll notices) or the data changed (the server back, say).
  useEffect(() => {
    let cancelled = false
    requireApi()
      .control.requests({ limit: SHOWN, source: WITHOUT_UI_CALLS })
      .then((page) => {
        if (cancelled) return
        setRows(page.requests.slice(0, SHOWN))
        setError(null)
      })
      .catch((cause: unknown) => {
        if (!cancelled) setError(toApiError(cause))
      })
    return () => {
      cancelled = true
    }
  }, [requestCount, dataVersion])

  return (
    <Card
      className="recent"
      title="Recent requests"
      description="What plugins and customer pages sent last."
      actions={
        <a className="btn btn--secondary btn--sm" href={buildHash('requests')}>
          Open the inspector
        </a>
      }
      testId="recent-requests"
    >
      {error && rows === null ? (
        <ErrorState compact error={error} title="Could not read the request log" />
      ) : (
        <Table
          caption="Recent requests"
          rows={rows}
          loading
          skeletonRows={3}
          dense
          rowKey={(entry) => entry.id}
          empty={
            <EmptyState compact title="No requests yet">
              Point a plugin at the base URL, or try the connection tester.
            </EmptyState>
          }
          columns={[
            {
              key: 'at',
              header: 'When',
              width: 140,
              render: (entry) => (
                <span className="small">
                  <RelativeTime value={entry.at} clock="system" />
                </span>
              )
            },
            {
              key: 'request',
              header: 'Request',
              render: (entry) => (
                <span className="inline-actions">
                  <span className="method">{entry.method}</span>
                  <code className="mono truncate">{entry.path}</code>
                </span>
              )
            },
            { key: 'status', header: 'Status', width: 110, render: (entry) => <StatusBadge status={entry.status} /> },
            {
              key: 'took',
              header: 'Took',
              width: 80,
              align: 'right',
              render: (entry) => <span className="small mono">{formatDuration(entry.durationMs)}</span>
            }
          ]}
        />
      )}
    </Card>
  )
}
