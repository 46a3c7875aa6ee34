import type { Static } from 'typebox'

import type { DriftFindingSchema } from '../../../../shared/schemas/drift'
import { Badge } from '../../components/Badge'
import { formatTimeOfDay } from '../../format/date'

export type DriftFindingRow = Omit<Static<typeof DriftFindingSchema>, 'count' | 'firstAt' | 'lastAt'> &
  Partial<Pick<Static<typeof DriftFindingSchema>, 'count' | 'firstAt' | 'lastAt'>>

/** Findings as a list, for a narrow pane (the request detail): each on its own lines, nothing to scroll sideways. */
export function FindingsList({ findings, label }: { findings: readonly DriftFindingRow[]; label: string }) {
  return (
    <ul className="drift-list" aria-label={label}>
      {findings.map((finding) => (
        <li key={`${finding.kind} ${finding.location} ${finding.path}`} data-testid="drift-finding">
          <span className="drift-list__head">
            <Badge tone={finding.severity === 'error' ? 'danger' : 'warning'}>{finding.severity}</Badge>{' '}
            <span className="mono small">{finding.kind}</span> <span className="muted small">{finding.location}</span>{' '}
            <code className="mono small break">{finding.path}</code>
          </span>
          <span className="small">
            {finding.expected}
            <span className="muted"> · seen </span>
            <span className="mono break">{finding.seen}</span>
          </span>
        </li>
      ))}
    </ul>
  )
}

/** Findings as a table: severity, kind, where, expected against seen, and (in the report) how often. */
export function FindingsTable({ findings, caption }: { findings: readonly DriftFindingRow[]; caption: string }) {
  const counted = findings.some((finding) => finding.count !== undefined)
  return (
    <div className="table-wrap">
      <table className="table table--dense drift-findings">
        <caption className="visually-hidden">{caption}</caption>
        <colgroup>
          <col style={{ width: 84 }} />
          <col style={{ width: '22%' }} />
          <col style={{ width: '24%' }} />
          <col />
          {counted ? <col style={{ width: 120 }} /> : null}
        </colgroup>
        <thead>
          <tr>
            <th scope="col">Severity</th>
            <th scope="col">Kind</th>
            <th scope="col">Where</th>
            <th scope="col">Expected / seen</th>
            {counted ? <th scope="col">Seen</th> : null}
          </tr>
        </thead>
        <tbody>
          {findings.map((finding) => (
            <tr key={`${finding.kind} ${finding.location} ${finding.path}`} data-testid="drift-finding">
              <td>
                <Badge tone={finding.severity === 'error' ? 'danger' : 'warning'}>{finding.severity}</Badge>
              </td>
              <td>
                <span className="mono small break">{finding.kind}</span>
              </td>
              <td>
                <span className="muted small">{finding.location}</span>{' '}
                <code className="mono small break">{finding.path}</code>
              </td>
              <td className="small">
                <span className="drift-findings__expected">{finding.expected}</span>
                <span className="muted"> · seen </span>
                <span className="mono break">{finding.seen}</span>
                {finding.example.value !== null ? (
                  <span className="drift-findings__example mono muted" title="The first example (redacted)">
                    {JSON.stringify(finding.example.value)}
                  </span>
                ) : null}
              </td>
              {counted ? (
                <td className="small">
                  <span className="strong">{finding.count}×</span>
                  {finding.lastAt ? <span className="muted"> last {formatTimeOfDay(finding.lastAt)}</span> : null}
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
