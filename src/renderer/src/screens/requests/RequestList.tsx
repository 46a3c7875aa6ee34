import { useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { KeyboardEvent, MouseEvent } from 'react'

import type { RequestSummary } from '../../api/types'
import { Badge, StatusBadge } from '../../components/Badge'
import { BreakableText } from '../../components/BreakableText'
import { Button } from '../../components/Button'
import { EmptyState, ErrorState } from '../../components/States'
import { sortRows, Table } from '../../components/Table'
import type { Column, TableSort } from '../../components/Table'
import { formatDuration, formatTimeOfDay } from '../../format/date'
import { buildHash } from '../../navigation/routes'
import { hasChosenFilters, useRequests } from '../../stores/requests'
import { DriftMark } from '../drift/DriftMark'
import { SURFACE_LABELS } from './RequestFilters'

/** Rows drawn beyond the visible ones, above and below, so a fast scroll shows no gap. */
const OVERSCAN = 12
/** A dense row's height until the first drawn row is measured. */
const DEFAULT_ROW_HEIGHT = 41

/** What each sortable column orders by. */
const SORT_VALUES: Record<string, (entry: RequestSummary) => string | number | null> = {
  time: (entry) => entry.id,
  request: (entry) => entry.path,
  status: (entry) => entry.status,
  code: (entry) => entry.errorCode,
  duration: (entry) => entry.durationMs
}

const SOURCE_LABELS: Record<RequestSummary['source'], string> = { client: 'client', tester: 'tester', ui: 'UI' }
const SOURCE_TITLES: Record<RequestSummary['source'], string> = {
  client: 'Sent by a plugin or a script',
  tester: "Sent by the emulator's connection tester",
  ui: "Sent by the emulator's own screens (library preview, credential management)"
}

/**
 * Under 1280 px the detail sits below the list (requests.css): a row opened with the pointer
 * brings the detail into view, or the click would change nothing the person can see. Arrow keys
 * stay in the list. Side by side, nothing moves.
 */
function revealDetailBelow(list: HTMLElement | null): void {
  const detail = list?.parentElement?.querySelector('.requests__detail')
  if (!list || !detail) return
  if (detail.getBoundingClientRect().top < list.getBoundingClientRect().bottom) return
  detail.scrollIntoView({ block: 'start' })
}

/**
 * The log, newest first; a row's path is the button that opens it (arrow keys move between rows).
 * Virtualised: only the rows in view (plus a margin) are in the DOM, so thousands of entries and
 * a live stream keep the screen responsive.
 */
export function RequestList() {
  const loaded = useRequests((state) => state.entries)
  // Sorted here, over every loaded row, not in the table: the table only sees the drawn window.
  const [sort, setSort] = useState<TableSort | null>(null)
  const entries = useMemo(() => {
    const value = sort ? SORT_VALUES[sort.key] : undefined
    return value && sort ? sortRows(loaded, value, sort.direction) : loaded
  }, [loaded, sort])
  const listStatus = useRequests((state) => state.listStatus)
  const listError = useRequests((state) => state.listError)
  const selectedId = useRequests((state) => state.selectedId)
  const select = useRequests((state) => state.select)
  const load = useRequests((state) => state.load)
  const nextBefore = useRequests((state) => state.nextBefore)
  const loadOlder = useRequests((state) => state.loadOlder)
  const loadingOlder = useRequests((state) => state.loadingOlder)
  const filtered = useRequests((state) => hasChosenFilters(state.filters))
  const section = useRef<HTMLElement>(null)
  // The row's click opens an entry: a click on the path button (Enter and Space included) bubbles
  // to it, so the button has no handler of its own (with one, each click fetched the entry twice).
  // `detail` counts clicks: 0 when Enter or Space pressed the button, whose focus stays in view.
  // Revealed once the entry is drawn: before, the short "loading" detail leaves too little to scroll.
  const open = (id: number, event: MouseEvent) => {
    const opened = select(id)
    if (event.detail > 0) void opened.then(() => requestAnimationFrame(() => revealDetailBelow(section.current)))
  }

  const firstLoad = listStatus !== 'ready' && entries.length === 0 && listStatus !== 'error'

  const scroller = useRef<HTMLDivElement>(null)
  const [view, setView] = useState({ top: 0, height: 800 })
  const [rowHeight, setRowHeight] = useState(DEFAULT_ROW_HEIGHT)
  const focusAfterRender = useRef<number | null>(null)
  useLayoutEffect(() => {
    const element = scroller.current
    if (!element) return
    const observer = new ResizeObserver(() => setView((current) => ({ ...current, height: element.clientHeight })))
    observer.observe(element)
    const onScroll = () =>
      setView((current) => (current.top === element.scrollTop ? current : { ...current, top: element.scrollTop }))
    element.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      observer.disconnect()
      element.removeEventListener('scroll', onScroll)
    }
  }, [firstLoad])
  // The real height of a drawn row (the CSS decides it), measured when rows first appear.
  const hasRows = entries.length > 0
  useLayoutEffect(() => {
    const row = scroller.current?.querySelector<HTMLElement>('tbody tr[data-testid]')
    if (row && row.offsetHeight > 0 && row.offsetHeight !== rowHeight) setRowHeight(row.offsetHeight)
  }, [hasRows, rowHeight])
  // After each render: move focus to a row the keyboard asked for, once it is drawn.
  useLayoutEffect(() => {
    const element = scroller.current
    if (focusAfterRender.current !== null) {
      const button = element?.querySelector<HTMLButtonElement>(`[data-request-id="${focusAfterRender.current}"]`)
      if (button) {
        button.focus()
        focusAfterRender.current = null
      }
    }
  })
  const first = Math.max(0, Math.floor(view.top / rowHeight) - OVERSCAN)
  const last = Math.min(entries.length, Math.ceil((view.top + view.height) / rowHeight) + OVERSCAN)
  const visible = entries.slice(first, last)

  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>, row: RequestSummary) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
    event.preventDefault()
    const index = entries.findIndex((entry) => entry.id === row.id)
    const nextIndex = event.key === 'ArrowDown' ? index + 1 : index - 1
    const next = entries[nextIndex]
    if (!next) return
    void select(next.id)
    focusAfterRender.current = next.id
    // Bring the row into the drawn window first; the layout effect focuses it once it is drawn.
    const element = scroller.current
    if (element) {
      const rowTop = nextIndex * rowHeight
      if (rowTop < element.scrollTop) element.scrollTop = rowTop
      else if (rowTop + rowHeight * 2 > element.scrollTop + element.clientHeight)
        element.scrollTop = rowTop + rowHeight * 2 - element.clientHeight
      setView({ top: element.scrollTop, height: element.clientHeight })
    }
  }

  const columns: Column<RequestSummary>[] = [
    {
      key: 'time',
      header: 'Time',
      width: 76,
      sortValue: SORT_VALUES.time,
      render: (entry) => <span className="mono small">{formatTimeOfDay(entry.at)}</span>,
      skeletonWidth: 60
    },
    {
      key: 'request',
      header: 'Request',
      sortValue: SORT_VALUES.request,
      render: (entry) => (
        <button
          type="button"
          className="row-button"
          data-request-id={entry.id}
          aria-pressed={entry.id === selectedId}
          title={`${SURFACE_LABELS[entry.surface]} · ${entry.path}${entry.source === 'client' ? '' : ` · ${SOURCE_TITLES[entry.source]}`}`}
        >
          <span className="method">{entry.method}</span> <BreakableText className="mono" text={entry.path} />
          {entry.source === 'client' ? null : (
            <span className="request-source" data-testid="request-source">
              {SOURCE_LABELS[entry.source]}
            </span>
          )}
        </button>
      ),
      skeletonWidth: '85%'
    },
    {
      key: 'status',
      header: 'Status',
      width: 76,
      sortValue: SORT_VALUES.status,
      render: (entry) => <StatusBadge status={entry.status} />,
      skeletonWidth: 40
    },
    {
      key: 'code',
      header: 'Code',
      width: 136,
      sortValue: SORT_VALUES.code,
      render: (entry) => (
        <span className="request-code">
          {/* Who answered, when not the emulator: here rather than in a column of its own, which left the
              path a few letters a line at 1280 px (test/e2e/upstream.spec.ts). */}
          {entry.answeredBy === 'emulator' ? null : (
            <Badge
              tone="neutral"
              title={`Answered by the ${entry.answeredBy}${entry.upstreamStatus !== null ? ` (status ${entry.upstreamStatus})` : ''}`}
            >
              <span data-testid="request-answered-by">{entry.answeredBy}</span>
            </Badge>
          )}
          {entry.fault ? (
            <Badge tone="danger" title={`Fault rule ${entry.fault.ruleId}: ${entry.fault.label}`}>
              fault
            </Badge>
          ) : null}
          <DriftMark entry={entry} />
          {entry.errorCode ? (
            <BreakableText className="mono small" text={entry.errorCode} testId="request-code" />
          ) : null}
        </span>
      ),
      skeletonWidth: 60
    },
    {
      key: 'duration',
      header: 'Took',
      width: 72,
      align: 'right',
      sortValue: SORT_VALUES.duration,
      render: (entry) => <span className="small mono">{formatDuration(entry.durationMs)}</span>,
      skeletonWidth: 40
    }
  ]

  return (
    <section className="requests__list" aria-label="Recorded requests" ref={section}>
      {listStatus === 'error' && entries.length === 0 ? (
        <ErrorState error={listError} title="Could not read the request log" onRetry={() => void load()} />
      ) : (
        <Table
          caption="Recorded requests, newest first"
          columns={columns}
          rows={firstLoad ? null : visible}
          omittedHeight={{ before: first * rowHeight, after: (entries.length - last) * rowHeight }}
          scrollRef={scroller}
          sorting={{ sort, onSort: setSort }}
          loading={firstLoad}
          skeletonRows={8}
          dense
          stickyHeader
          rowKey={(entry) => entry.id}
          selectedKey={selectedId}
          onRowClick={(entry, event) => open(entry.id, event)}
          onRowKeyDown={onKeyDown}
          rowTestId={(entry) => `request-row-${entry.id}`}
          empty={
            <EmptyState compact title={filtered ? 'No request matches these filters' : 'No requests yet'}>
              {filtered ? (
                'New matching requests appear here as they arrive.'
              ) : (
                <>
                  Requests to the service API appear here live, redacted. Try the{' '}
                  <a href={buildHash('tester')}>connection tester</a>, or point a plugin at this server.
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
