import type { ConnectionStatus } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card, KeyValue } from '../../components/Card'
import { Skeleton } from '../../components/Skeleton'
import { EmptyState, ErrorState } from '../../components/States'
import { RelativeTime } from '../../components/Time'
import { formatCount } from '../../format/number'
import type { Resource } from '../../stores/resource'

/**
 * The product's connection status record: the last verification and the tally. Given the product's
 * current credential, a verification of an earlier one (before a rotation or revoke) no longer
 * reads as "verified".
 */
export function ConnectionSummary({
  connection,
  currentCredentialId,
  title = 'Connection status'
}: {
  connection: Resource<ConnectionStatus | null>
  currentCredentialId?: string | null
  title?: string
}) {
  const record = connection.data
  const stale =
    record !== null &&
    record.lastStatus === 'verified' &&
    currentCredentialId !== undefined &&
    record.lastCredentialId !== null &&
    record.lastCredentialId !== currentCredentialId
  return (
    <Card title={title} description="Updated by every POST /api/plugin-connections/verify." testId="connection-status">
      {connection.status === 'error' && record === null ? (
        <ErrorState compact error={connection.error} title="Could not read the connection status" />
      ) : record ? (
        <KeyValue
          items={[
            {
              label: 'Last result',
              value: (
                <span className="inline-actions">
                  {stale ? (
                    <Badge tone="warning">not verified since the credential changed</Badge>
                  ) : record.lastStatus === 'verified' ? (
                    <Badge tone="success">verified</Badge>
                  ) : (
                    <Badge tone="danger">failed</Badge>
                  )}
                  {record.lastReason ? <code className="error-code">{record.lastReason}</code> : null}
                  <RelativeTime value={record.lastAttemptAt} />
                </span>
              )
            },
            { label: 'Last verified', value: <RelativeTime value={record.lastVerifiedAt} /> },
            {
              label: 'Attempts',
              value: (
                <span>
                  {formatCount(record.attemptCount)}{' '}
                  <span className="muted small">
                    ({formatCount(record.successCount)} ok, {formatCount(record.failureCount)} failed)
                  </span>
                </span>
              )
            }
          ]}
        />
      ) : connection.status === 'ready' ? (
        <EmptyState compact title="Never verified">
          No plugin has called verify for this product yet. Try the connection tester.
        </EmptyState>
      ) : (
        <dl className="kv" aria-hidden="true">
          {[200, 120, 160].map((width, index) => (
            <div className="kv__row" key={index}>
              <dt>
                <Skeleton width={80} height="0.9em" />
              </dt>
              <dd>
                <Skeleton width={width} height="1.1em" />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  )
}
