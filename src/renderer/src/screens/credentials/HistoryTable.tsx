import type { CredentialRecord } from '../../api/types'
import { failedWithoutData } from '../../stores/resource'
import { Badge } from '../../components/Badge'
import { Card } from '../../components/Card'
import { EmptyState, ErrorState } from '../../components/States'
import { Table } from '../../components/Table'
import type { Column } from '../../components/Table'
import { RelativeTime } from '../../components/Time'
import type { Resource } from '../../stores/resource'

const CAUSE: Record<string, string> = { revoke: 'revoked', 'rotate-key': 'key rotation', 'rotate-secret': 'secret rotation' }

/** Rotation and revocation history: every credential the product had, newest first. */
export function HistoryTable({ history }: { history: Resource<CredentialRecord[]> }) {
  const columns: Column<CredentialRecord>[] = [
    {
      key: 'key',
      header: 'Key',
      render: (credential) => (
        <span className="stack stack--tight">
          <code className="mono small">{credential.pluginKeyPreview}</code>
          <span className="muted small">
            issued <RelativeTime value={credential.createdAt} />
          </span>
        </span>
      ),
      skeletonWidth: '80%'
    },
    {
      key: 'status',
      header: 'Status',
      width: 96,
      render: (credential) => (credential.isActive ? <Badge tone="success">active</Badge> : <Badge tone="danger">revoked</Badge>),
      skeletonWidth: 56
    },
    {
      key: 'ended',
      header: 'Ended',
      width: '38%',
      render: (credential) =>
        credential.revokedAt ? (
          <span className="stack stack--tight">
            <span className="small">
              {CAUSE[credential.revocationCause ?? 'revoke'] ?? 'revoked'} <RelativeTime value={credential.revokedAt} />
            </span>
            {credential.revokedReason ? <span className="muted small truncate">“{credential.revokedReason}”</span> : null}
          </span>
        ) : (
          <span className="muted small">in use</span>
        )
    }
  ]
  return (
    <Card title="History" description="Rotations and revocations, newest first." testId="credential-history">
      {failedWithoutData(history) ? (
        <ErrorState compact error={history.error} title="Could not read the history" />
      ) : (
        <Table
          caption="Credential history"
          columns={columns}
          rows={history.data}
          loading
          skeletonRows={2}
          dense
          rowKey={(credential) => credential.id}
          empty={<EmptyState compact title="No credentials issued yet" />}
        />
      )}
    </Card>
  )
}
