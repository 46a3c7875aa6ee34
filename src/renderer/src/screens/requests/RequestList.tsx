import type { KeyboardEvent } from 'react'
import type { RequestSummary } from '../../api/types'
import { StatusBadge } from '../../components/Badge'
import { Button } from '../../components/Button'
import { EmptyState, ErrorState } from '../../components/States'
import { Table } from '../../components/Table'
import type { Column } from '../../components/Table'
import { formatDuration, formatTimeOfDay } from '../../format/date'
import { useRequests } from '../../stores/requests'
import { buildHash } from '../../app/routes'
import { SURFACE_LABELS } from './RequestFilters'

/** The log, newest first; a row's path is the button that opens it (arrow keys move between rows). */
export function RequestList() {
  const entries = useRequests((state) => state.entries)
  const listStatus = useRequests((state) => state.listStatus)
  const listError = useRequests((state) => state.listError)
  const selectedId = useRequests((state) => state.selectedId)
  const select = useRequests((state) => state.select)
  const load = useRequests((state) => state.load)
  const nextBefore = useRequests((state) => state.nextBefore)
  const loadOlder = useRequests((state) => state.loadOlder)
  const loadingOlder = useRequests((state) => state.loadingOlder)
  const filtered = useRequests((state) => Object.keys(state.filters).length > 0)

  const firstLoad = listStatus !== 'ready' && entries.length === 0 && listStatus !== 'error'

  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, row: RequestSummary) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    event.preventDefault()
    const index = entries.findIndex((entry) => entry.id === row.id)
    const next = entries[event.key === 'ArrowDown' ? index + 1 : index - 1]
    if (!next) return
    void select(next.id)
    const table = event.currentTarget.closest('table')
    requestAnimationFrame(() => table?.querySelector<HTMLButtonElement>(`[data-request-id="${next.id}"]`)?.focus())
  }

  const columns: Column<RequestSummary>[] = [
    { key: 'time', header: 'Time', width: 76, render: (entry) => <span className="mono small">{formatTimeOfDay(entry.at)}</span>, skeletonWidth: 60 },
    {
      key: 'request',
      header: 'Request',
      render: (entry) => (
        <button type="button" className="row-button" data-request-id={entry.id} aria-pressed={entry.id === selectedId} onClick={() => void select(entry.id)} title={`${SURFACE_LABELS[entry.surface]} · ${entry.path}`}>
          <span className="method">{entry.method}</span> <span className="mono truncate">{entry.path}</span>
        </button>
      ),
      skeletonWidth: '85%'
    },
    { key: 'status', header: 'Status', width: 90, render: (entry) => <StatusBadge status={entry.status} />, skeletonWidth: 40 },
    { key: 'duration', header: 'Took', width: 72, align: 'right', render: (entry) => <span className="small mono">{formatDuration(entry.durationMs)}</span>, skeletonWidth: 40 }
  ]

  return (
    <section className="requests__list" aria-label="Recorded requests">
      {listStatus === 'error' && entries.length === 0 ? (
        <ErrorState error={listError} title="Could not read the request log" onRetry={() => void load()} />
      ) : (
        <Table
          caption="Recorded requests, newest first"
          columns={columns}
          rows={firstLoad ? null : entries}
          loading={firstLoad}
          skeletonRows={8}
          dense
          stickyHeader
          rowKey={(entry) => entry.id}
          selectedKey={selectedId}
          onRowClick={(entry) => void select(entry.id)}
          onRowKeyDown={onKeyDown}
          rowTestId={(entry) => `request-row-${entry.id}`}
          empty={
            <EmptyState compact title={filtered ? 'No request matches these filters' : 'No requests yet'}>
              {filtered ? (
                'New matching requests appear here as they arrive.'
              ) : (
                <>
                  Requests to the service API appear here live, redacted. Try the <a href={buildHash('tester')}>connection tester</a>, or point a plugin at this server.
                </>
              )}
            </EmptyState>
          }
        />
      )}
      {nextBefore !== null && entries.length > 0 ? (
        <div className="requests__more">
          <Button size="sm" variant="ghost" busy={loadingOlder} onClick={() => void loadOlder()}>
            Load older requests
          </Button>
        </div>
      ) : null}
    </section>
  )
}
