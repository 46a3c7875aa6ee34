import { useEffect, useState } from 'react'

import { SURFACES } from '../../../../shared/contract/inspector'
import type { AnsweredBy } from '../../../../shared/contract/inspector'
import type { Surface } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Button } from '../../components/Button'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { Checkbox, Field, Select, TextInput } from '../../components/Field'
import { ProductOptions } from '../../components/ProductOptions'
import { useProducts } from '../../stores/products'
import { useRequests, WITHOUT_UI_CALLS } from '../../stores/requests'
import { toast } from '../../stores/toasts'
import { ExportHar } from './ExportHar'

export const SURFACE_LABELS: Record<Surface, string> = {
  'developer-plugin-keys': 'Credential management',
  'plugin-connections': 'Connection verify',
  library: 'Customer library',
  'license-v1': 'Licensing v1',
  downloads: 'Downloads',
  legacy: 'Legacy keys',
  'well-known': 'Well-known keys',
  other: 'Other'
}

const STATUSES = [
  { value: '', label: 'Any status' },
  { value: '2xx', label: '2xx success' },
  { value: '4xx', label: '4xx client error' },
  { value: '5xx', label: '5xx server error' },
  { value: '401', label: '401 unauthorized' },
  { value: '403', label: '403 forbidden' },
  { value: '404', label: '404 not found' },
  { value: '409', label: '409 conflict' },
  { value: '429', label: '429 rate limited' },
  { value: '0', label: 'No response (dropped)' }
]

function LiveIndicator() {
  const live = useRequests((state) => state.live)
  const paused = useRequests((state) => state.paused)
  const held = useRequests((state) => state.held.length)
  if (paused) return <Badge tone="warning">paused{held > 0 ? ` · ${held} new` : ''}</Badge>
  if (live === 'live')
    return (
      <span className="live" data-testid="live-indicator">
        <span className="status-dot status-dot--live" aria-hidden="true" /> Live
      </span>
    )
  return (
    <Badge tone="neutral">
      {live === 'reconnecting' ? 'reconnecting…' : live === 'connecting' ? 'connecting…' : 'off'}
    </Badge>
  )
}

/**
 * Text search (anywhere in the redacted exchange), surface, status, product and method filters;
 * the UI's own calls, hidden by default; pause; clear the log.
 */
export function RequestFilters() {
  const filters = useRequests((state) => state.filters)
  const setFilters = useRequests((state) => state.setFilters)
  const paused = useRequests((state) => state.paused)
  const setPaused = useRequests((state) => state.setPaused)
  const clear = useRequests((state) => state.clear)
  const products = useProducts((state) => state.products.data)
  const [confirming, setConfirming] = useState(false)
  // The search reaches the server a moment after typing stops, not on every key.
  const [search, setSearch] = useState(filters.q ?? '')
  // A search set from elsewhere (a link to the requests of a license) shows in the box.
  const [followedQ, setFollowedQ] = useState(filters.q)
  if (followedQ !== filters.q) {
    setFollowedQ(filters.q)
    if ((filters.q ?? '') !== search.trim()) setSearch(filters.q ?? '')
  }
  useEffect(() => {
    const wanted = search.trim() || undefined
    if (wanted === useRequests.getState().filters.q) return
    const timer = setTimeout(() => setFilters({ q: wanted }), 250)
    return () => clearTimeout(timer)
  }, [search, setFilters])

  return (
    <div className="toolbar" role="search" aria-label="Filter requests">
      <Field label="Search" className="toolbar__field toolbar__field--search">
        {(control) => (
          <TextInput
            {...control}
            type="search"
            value={search}
            placeholder="Key, instance id, any text"
            title="Text anywhere in the request or its answer: path and query, headers, bodies"
            maxLength={500}
            onChange={(event) => setSearch(event.target.value)}
            data-testid="filter-search"
          />
        )}
      </Field>
      <Field label="Surface" className="toolbar__field">
        {(control) => (
          <Select
            {...control}
            value={filters.surface ?? ''}
            onChange={(event) => setFilters({ surface: (event.target.value || undefined) as Surface | undefined })}
            data-testid="filter-surface"
          >
            <option value="">All surfaces</option>
            {SURFACES.map((surface) => (
              <option key={surface} value={surface}>
                {SURFACE_LABELS[surface]}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Status" className="toolbar__field">
        {(control) => (
          <Select
            {...control}
            value={filters.status ?? ''}
            onChange={(event) => setFilters({ status: event.target.value || undefined })}
            data-testid="filter-status"
          >
            {STATUSES.map((status) => (
              <option key={status.value} value={status.value}>
                {status.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <Field label="Product" className="toolbar__field">
        {(control) => (
          <Select
            {...control}
            value={filters.productId ?? ''}
            onChange={(event) => setFilters({ productId: event.target.value || undefined })}
            data-testid="filter-product"
          >
            <option value="">All products</option>
            <ProductOptions products={products} />
          </Select>
        )}
      </Field>
      <Field label="Answered by" className="toolbar__field">
        {(control) => (
          <Select
            {...control}
            value={filters.answeredBy ?? ''}
            onChange={(event) =>
              setFilters({ answeredBy: (event.target.value || undefined) as AnsweredBy | undefined })
            }
            data-testid="filter-answered-by"
          >
            <option value="">Anyone</option>
            <option value="emulator">Emulator</option>
            <option value="upstream">Upstream</option>
            <option value="recording">Recording</option>
          </Select>
        )}
      </Field>
      <Field label="Method" className="toolbar__field toolbar__field--narrow">
        {(control) => (
          <Select
            {...control}
            value={filters.method ?? ''}
            onChange={(event) => setFilters({ method: event.target.value || undefined })}
          >
            <option value="">Any</option>
            {['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'].map((method) => (
              <option key={method} value={method}>
                {method}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <div className="toolbar__check">
        <Checkbox
          label="UI's own calls"
          title="Show what the emulator's own screens sent (the library preview, credential management); the connection tester's calls are always shown"
          checked={filters.source === undefined}
          onChange={(event) => setFilters({ source: event.target.checked ? undefined : WITHOUT_UI_CALLS })}
          data-testid="filter-ui-calls"
        />
      </div>
      <div className="toolbar__spacer" />
      <LiveIndicator />
      <Button
        size="sm"
        icon={paused ? 'play' : 'pause'}
        needsServer={false}
        onClick={() => setPaused(!paused)}
        aria-pressed={paused}
      >
        {paused ? 'Resume' : 'Pause'}
      </Button>
      <ExportHar />
      <Button size="sm" icon="trash" variant="ghost" onClick={() => setConfirming(true)}>
        Clear log
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Clear the request log?"
        description="Every recorded request is deleted from the inspector. The data they created stays."
        confirmLabel="Clear log"
        variant="danger"
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          await clear()
          setConfirming(false)
          toast.success('Request log cleared')
        }}
        testId="clear-log-dialog"
      />
    </div>
  )
}
