import { useEffect, useState } from 'react'

import { Badge } from '../../components/Badge'
import { Button } from '../../components/Button'
import { Card } from '../../components/Card'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { CopyButton } from '../../components/CopyButton'
import { SkeletonLines } from '../../components/Skeleton'
import { EmptyState, ErrorState } from '../../components/States'
import { useConnection } from '../../stores/connection'
import { useDrift } from '../../stores/drift'
import type { DriftReport } from '../../stores/drift'
import { failedWithoutData, isFirstLoad } from '../../stores/resource'
import { FindingsTable } from './FindingsTable'

/**
 * The drift report (docs/upstream.md): per operation, where the upstream's answers departed from
 * the emulator's own contract, with the coverage of the operations seen so far.
 */
export function DriftScreen() {
  const report = useDrift((state) => state.report)
  const load = useDrift((state) => state.load)
  const dataVersion = useConnection((state) => state.dataVersion)
  useEffect(() => {
    void load()
  }, [load, dataVersion])

  return (
    <div className="screen drift" data-testid="drift-screen">
      {failedWithoutData(report) ? (
        <ErrorState error={report.error} title="Could not read the drift report" onRetry={() => void load()} />
      ) : isFirstLoad(report) || !report.data ? (
        <Card title="Drift report">
          <SkeletonLines lines={4} widths={['50%', '70%', '40%', '60%']} />
        </Card>
      ) : (
        <DriftReportView report={report.data} />
      )}
    </div>
  )
}

function DriftReportView({ report }: { report: DriftReport }) {
  const findings = report.operations.flatMap((operation) => operation.findings)
  const errors = findings.filter((finding) => finding.severity === 'error').length
  const { seen, documented } = report.coverage
  const percent = documented === 0 ? 0 : Math.round((seen / documented) * 100)
  return (
    <>
      <Card
        title="Drift report"
        description="Each answer the upstream gives through the forwarding is held to the contract this emulator documents (/openapi.json, every object read as closed); license tokens are verified with the upstream's own keys."
        actions={<ReportActions />}
        testId="drift-summary"
      >
        <div className="drift-summary">
          <div className="drift-summary__figure" data-testid="drift-coverage">
            <span className="drift-summary__number">
              {seen} <span className="muted">of {documented}</span>
            </span>
            <span className="muted small">documented operations seen</span>
            <div
              className="drift-meter"
              role="meter"
              aria-label="Coverage"
              aria-valuemin={0}
              aria-valuemax={documented}
              aria-valuenow={seen}
            >
              <span className="drift-meter__fill" style={{ width: `${percent}%` }} />
            </div>
          </div>
          <div className="drift-summary__figure" data-testid="drift-totals">
            <span className="drift-summary__number">{findings.length}</span>
            <span className="muted small">
              finding groups: {errors} error{errors === 1 ? '' : 's'}, {findings.length - errors} warning
              {findings.length - errors === 1 ? '' : 's'}
            </span>
          </div>
          <div className="drift-summary__figure">
            <span className="drift-summary__number">
              {report.operations.reduce((sum, operation) => sum + operation.calls, 0)}
            </span>
            <span className="muted small">upstream answers checked</span>
          </div>
        </div>
      </Card>
      {report.operations.length === 0 ? (
        <Card>
          <EmptyState title="No upstream answer checked yet">
            Turn forwarding on (serve --upstream URL, or Scenarios & settings) and run your plugin against this
            emulator: each answer the upstream gives is checked here.
          </EmptyState>
        </Card>
      ) : (
        report.operations.map((operation) => (
          <Card
            key={`${operation.method} ${operation.path}`}
            testId="drift-operation"
            title={
              <span className="drift-operation__title">
                <span className="method">{operation.method}</span> <span className="mono break">{operation.path}</span>
              </span>
            }
            description={
              <>
                {operation.operationId ?? 'not documented by the emulator'} · {operation.calls} call
                {operation.calls === 1 ? '' : 's'}
              </>
            }
            actions={
              operation.findings.length === 0 ? (
                <Badge tone="success">{operation.operationId ? 'no drift' : 'not checked'}</Badge>
              ) : (
                <Badge tone={operation.findings.some((finding) => finding.severity === 'error') ? 'danger' : 'warning'}>
                  {operation.findings.length} finding{operation.findings.length === 1 ? '' : 's'}
                </Badge>
              )
            }
          >
            {operation.findings.length > 0 ? (
              <FindingsTable findings={operation.findings} caption={`Drift of ${operation.method} ${operation.path}`} />
            ) : null}
          </Card>
        ))
      )}
      {report.coverage.unseen.length > 0 ? (
        <Card title="Not seen yet" description="Documented service operations no upstream answer has been checked for.">
          <p className="drift-unseen mono small">{report.coverage.unseen.join(' · ')}</p>
        </Card>
      ) : null}
    </>
  )
}

/** Copy the Markdown report (to attach to a bug), and clear the report. */
function ReportActions() {
  const markdown = useDrift((state) => state.markdown)
  const clear = useDrift((state) => state.clear)
  const hasReport = useDrift((state) => (state.report.data?.operations.length ?? 0) > 0)
  const [text, setText] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const version = useDrift((state) => state.report.data)
  useEffect(() => {
    let live = true
    markdown().then(
      (value) => live && setText(value),
      () => live && setText(null)
    )
    return () => {
      live = false
    }
  }, [markdown, version])
  return (
    <div className="button-row">
      <CopyButton value={text ?? ''} label="Copy Markdown" disabled={text === null} data-testid="drift-copy" />
      <Button
        variant="danger"
        size="sm"
        icon="trash"
        disabled={!hasReport}
        disabledReason="Nothing to clear."
        onClick={() => setConfirming(true)}
        data-testid="drift-clear"
      >
        Clear
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Clear the drift report?"
        description="Every finding and the coverage start over. The request log is kept."
        confirmLabel="Clear report"
        variant="danger"
        onConfirm={clear}
        onClose={() => setConfirming(false)}
        testId="drift-clear-dialog"
      />
    </div>
  )
}
