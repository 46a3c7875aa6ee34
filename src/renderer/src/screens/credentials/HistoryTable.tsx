import type { CredentialRecord } from '../../api/types'
import { Card } from '../../components/Card'
import { ResourceTable } from '../../components/ResourceTable'
import { EmptyState } from '../../components/States'
import type { Column } from '../../components/Table'
import { RelativeTime } from '../../components/Time'
import type { Resource } from '../../stores/resource'
import { CredentialStatusBadge } from '../developers/ProductList'

const CAUSE: Record<string, string> = {
  revoke: 'revoked',
  'rotate-key': 'key rotation',
  'rotate-secret': 'secret rotation'
}

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
      render: (credential) => <CredentialStatusBadge credential={credential} />,
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
            {credential.revokedReason ? (
              <span className="muted small breakable">“{credential.revokedReason}”</span>
            ) : null}
          </span>
        ) : (
          <span className="muted small">in use</span>
        )
    }
  ]
  return (
    <Card title="History" description="Rotations and revocations, newest first." testId="credential-history">
      <ResourceTable
        resource={history}
        rows={history.data}
        failedTitle="Could not read the history"
        compactError
        caption="Credential history"
        columns={columns}
        skeletonRows={2}
        dense
        rowKey={(credential) => credential.id}
        empty={<EmptyState compact title="No credentials issued yet" />}
      />
    </Card>
  )
}
