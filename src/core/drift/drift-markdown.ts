import type { DriftReport } from './drift-report'

export interface MarkdownContext {
  /** The upstream the exchanges went to, null when forwarding is off now. */
  upstreamUrl: string | null
  generatedAt: string
  emulatorVersion: string
}

/**
 * The drift report as Markdown, to attach to a bug or send to the platform: the same content
 * as GET /_emulator/drift, already redacted.
 */
export function driftMarkdown(report: DriftReport, context: MarkdownContext): string {
  const lines: string[] = ['# Drift report', '']
  lines.push(
    `Where the upstream's answers depart from the contract Plugin License Emulator ${context.emulatorVersion} documents (its OpenAPI document, every object read as closed).`,
    '',
    `- Upstream: ${context.upstreamUrl ? `\`${cell(context.upstreamUrl)}\`` : 'forwarding is off'}`,
    `- Generated: ${context.generatedAt}`,
    `- Coverage: ${report.coverage.seen} of ${report.coverage.documented} documented operations seen`
  )
  const findings = report.operations.flatMap((operation) => operation.findings)
  const errors = findings.filter((finding) => finding.severity === 'error').length
  lines.push(
    `- Findings: ${findings.length} (${errors} error${errors === 1 ? '' : 's'}, ${findings.length - errors} warning${findings.length - errors === 1 ? '' : 's'})`,
    ''
  )
  if (report.operations.length === 0) lines.push('No upstream answer has been checked yet.', '')
  for (const operation of report.operations) {
    const name = operation.operationId ?? 'not documented'
    lines.push(`## ${operation.method} ${operation.path} (${name})`, '')
    lines.push(`${operation.calls} call${operation.calls === 1 ? '' : 's'} seen.`, '')
    if (operation.findings.length === 0) {
      lines.push(operation.operationId ? 'No drift.' : 'Not checked: the emulator documents no such operation.', '')
      continue
    }
    lines.push('| Severity | Kind | Where | Expected | Seen | Count | First seen | Last seen | Example |')
    lines.push('|---|---|---|---|---|---|---|---|---|')
    for (const finding of operation.findings) {
      lines.push(
        `| ${finding.severity} | ${finding.kind} | ${finding.location} \`${cell(finding.path)}\` | ${cell(finding.expected)} | ${cell(finding.seen)} | ${finding.count} | ${finding.firstAt} | ${finding.lastAt} | ${exampleCell(finding.example)} |`
      )
    }
    lines.push('')
  }
  if (report.coverage.unseen.length > 0) {
    lines.push('## Not seen yet', '', report.coverage.unseen.map((id) => `\`${id}\``).join(', '), '')
  }
  return `${lines.join('\n').trimEnd()}\n`
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ')
}

function exampleCell(example: { requestId: string; status: number; value: unknown }): string {
  const value = example.value === null ? '' : ` \`${cell(JSON.stringify(example.value) ?? '').replace(/`/g, "'")}\``
  return `${example.status} (${example.requestId})${value}`
}
