import { useState } from 'react'

import type { RequestEntry } from '../../api/types'
import { Badge, StatusBadge } from '../../components/Badge'
import { BreakableText } from '../../components/BreakableText'
import { KeyValue } from '../../components/Card'
import { JsonView } from '../../components/JsonView'
import { Skeleton, SkeletonLines } from '../../components/Skeleton'
import { EmptyState, ErrorState } from '../../components/States'
import { Tabs } from '../../components/Tabs'
import { DateTime } from '../../components/Time'
import { formatBytes } from '../../format/bytes'
import { formatDuration } from '../../format/date'
import { useRequests } from '../../stores/requests'
import { RequestDriftFindings } from '../drift/RequestDriftFindings'
import { HeaderTable } from './HeaderTable'
import { LicenseTokens } from './LicenseTokens'
import { RequestActions } from './RequestActions'
import { SURFACE_LABELS } from './RequestFilters'

const AUTH_LABELS: Record<string, string> = {
  'developer-jwt': 'developer JWT',
  'product-credential': 'product credential headers',
  'product-credential-bearer': 'plugin key as Bearer',
  'library-token': 'library token',
  'user-jwt': 'signed-in user JWT',
  none: 'none'
}

const SENT_BY: Record<RequestEntry['source'], string> = {
  client: 'a plugin or script',
  tester: 'the connection tester',
  ui: "the emulator's own screens"
}

function Body({ body, info, label }: { body: unknown; info: RequestEntry['request']['bodyInfo']; label: string }) {
  if (info.kind === 'none') return <p className="muted small">No body.</p>
  return (
    <div className="stack stack--tight">
      <p className="muted small">
        {info.kind.toUpperCase()}
        {info.bytes !== null ? `, ${formatBytes(info.bytes)}` : ''}
        {info.truncated ? ', cut to the first 16 KB' : ''}
        {info.note ? ` — ${info.note}` : ''}
      </p>
      {body !== null && body !== undefined ? <JsonView value={body} label={label} maxHeight={360} /> : null}
    </div>
  )
}

function EntryView({ entry }: { entry: RequestEntry }) {
  const [tab, setTab] = useState('request')
  return (
    <div className="stack" data-testid="request-detail">
      <p className="detail-title">
        <span className="method">{entry.method}</span> <code className="mono break">{entry.path}</code>{' '}
        <StatusBadge status={entry.status} />
      </p>
      <RequestActions entry={entry} />
      <KeyValue
        items={[
          { label: 'When', value: <DateTime value={entry.at} clock="system" seconds /> },
          { label: 'Surface', value: SURFACE_LABELS[entry.surface] },
          { label: 'Auth', value: <Badge tone="neutral">{AUTH_LABELS[entry.authKind] ?? entry.authKind}</Badge> },
          {
            label: 'Product',
            value: entry.productId ? <code className="mono">{entry.productId}</code> : <span className="muted">—</span>
          },
          { label: 'Time taken', value: formatDuration(entry.durationMs) },
          { label: 'Sent by', value: SENT_BY[entry.source] },
          {
            label: 'Answered by',
            value: (
              <span data-testid="request-answered-by">
                <Badge tone={entry.answeredBy === 'emulator' ? 'neutral' : 'info'}>{entry.answeredBy}</Badge>
                {entry.upstreamStatus !== null
                  ? ` upstream said ${entry.upstreamStatus}${entry.upstreamMs !== null ? ` in ${formatDuration(entry.upstreamMs)}` : ''}`
                  : ''}
              </span>
            )
          },
          ...(entry.errorCode ? [{ label: 'Error code', value: <code className="mono">{entry.errorCode}</code> }] : []),
          ...(entry.fault
            ? [
                {
                  label: 'Fault rule',
                  value: (
                    <span data-testid="request-fault">
                      <Badge tone="danger">{entry.fault.kind}</Badge>{' '}
                      <BreakableText className="mono" text={entry.fault.ruleId} />: {entry.fault.label}
                    </span>
                  )
                }
              ]
            : [])
        ]}
      />
      <p className="muted small">Redacted by the server: plugin keys, secrets and tokens show previews only.</p>
      {entry.request.warnings && entry.request.warnings.length > 0 ? (
        <div className="stack" role="note" data-testid="request-warnings">
          <p className="small">
            <Badge tone="warning">ignored</Badge> The server ignored names this route does not know:
          </p>
          <ul className="small">
            {entry.request.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <RequestDriftFindings entry={entry} />
      <LicenseTokens entry={entry} />
      <Tabs
        label="Request and response"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { id: 'request', label: 'Request' },
          { id: 'response', label: 'Response' }
        ]}
      >
        {tab === 'request' ? (
          <div className="stack">
            <h3 className="subheading">Headers</h3>
            <HeaderTable headers={entry.request.headers} caption="Request headers" />
            {Object.keys(entry.request.query).length > 0 ? (
              <>
                <h3 className="subheading">Query</h3>
                <HeaderTable headers={entry.request.query} caption="Query parameters" />
              </>
            ) : null}
            <h3 className="subheading">Body</h3>
            <Body body={entry.request.body} info={entry.request.bodyInfo} label="Request body" />
          </div>
        ) : (
          <div className="stack">
            <h3 className="subheading">Body</h3>
            <Body body={entry.response.body} info={entry.response.bodyInfo} label="Response body" />
            <h3 className="subheading">Headers</h3>
            <HeaderTable headers={entry.response.headers} caption="Response headers" empty="None recorded." />
          </div>
        )}
      </Tabs>
    </div>
  )
}

/** The selected request, redacted, as the server recorded it. */
export function RequestDetail() {
  const selectedId = useRequests((state) => state.selectedId)
  const detail = useRequests((state) => state.detail)
  const select = useRequests((state) => state.select)
  return (
    <section className="requests__detail card" aria-label="Request detail">
      <div className="card__body">
        {selectedId === null ? (
          <EmptyState compact title="No request selected">
            Choose a request to see its redacted headers and bodies.
          </EmptyState>
        ) : detail.data ? (
          <EntryView entry={detail.data} key={detail.data.id} />
        ) : detail.status === 'error' ? (
          <ErrorState
            error={detail.error}
            title="Could not read this request"
            onRetry={() => void select(selectedId)}
          />
        ) : (
          <div aria-hidden="true" className="stack">
            <Skeleton width="80%" height="1.4em" />
            <SkeletonLines lines={5} widths={['60%', '45%', '55%', '40%', '35%']} />
            <Skeleton width="100%" height={180} radius={6} />
          </div>
        )}
      </div>
    </section>
  )
}
