import type { AuditEntry } from '../../api/types'
import { Badge } from '../../components/Badge'
import { Card } from '../../components/Card'
import { ResourceTable } from '../../components/ResourceTable'
import { EmptyState } from '../../components/States'
import type { Column } from '../../components/Table'
import { DateTime } from '../../components/Time'
import type { Resource } from '../../stores/resource'

const ACTIONS: Record<string, string> = {
  create: 'Created',
  ensure: 'Ensured (created)',
  'reveal-secret': 'Revealed secret',
  'rotate-key': 'Rotated key',
  'rotate-secret': 'Rotated secret',
  revoke: 'Revoked',
  verify: 'Verified connection',
  'create-legacy': 'Created (legacy, unrecoverable)'
}

function actor(entry: AuditEntry): string {
  if (entry.actorKind === 'plugin') return 'a plugin'
  if (entry.actorKind === 'emulator') return 'the emulator'
  return entry.actorId ?? 'a developer'
}

/** Who did what to the product's credentials, when, and why. */
export function AuditTable({ audit }: { audit: Resource<AuditEntry[]> }) {
  const columns: Column<AuditEntry>[] = [
    { key: 'at', header: 'When', width: 190, render: (entry) => <DateTime value={entry.at} seconds /> },
    {
      key: 'action',
      header: 'Action',
      width: 220,
      render: (entry) => (
        <span className="inline-actions">
          {ACTIONS[entry.action] ?? entry.action}
          {entry.outcome !== 'success' ? (
            <Badge tone={entry.outcome === 'failure' ? 'danger' : 'neutral'}>{entry.outcome}</Badge>
          ) : null}
        </span>
      )
    },
    {
      key: 'actor',
      header: 'By',
      width: 180,
      // Wrapped, never cut: the trail is read whole, without a hover.
      render: (entry) => <span className="small mono breakable">{actor(entry)}</span>
    },
    {
      key: 'reason',
      header: 'Reason',
      render: (entry) =>
        entry.reason ? <span className="breakable">{entry.reason}</span> : <span className="muted">—</span>
    }
  ]
  return (
    <Card
      title="Audit trail"
      description="Create, ensure, reveal, rotate, revoke and verify, with actor and reason."
      testId="audit-trail"
    >
      <ResourceTable
        resource={audit}
        rows={audit.data}
        failedTitle="Could not read the audit trail"
        compactError
        caption="Audit trail"
        columns={columns}
        skeletonRows={3}
        dense
        rowKey={(entry) => entry.id}
        empty={<EmptyState compact title="Nothing has happened to this product's credentials yet" />}
      />
    </Card>
  )
}
