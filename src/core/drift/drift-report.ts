import { driftSeverityOf, entryDistance, indistinguishable } from '../../shared/contract/drift'
import type {
  DriftFindingKind,
  DriftLocation,
  DriftSeverity,
  ExchangeMark,
  InspectedExchange
} from '../../shared/contract/drift'
import { hideValues } from '../inspector/redact-exchange'
import { redactJson, redactText, redactUrl, SECRET_FIELD_NAMES } from '../redaction/redact'
import type { ForwardedExchange } from '../upstream/forwarded-exchange'
import type { CheckedExchange } from './exchange-check'
import type { ExchangeFinding } from './finding'

/** One finding group of an operation: the same kind at the same place, however often seen. */
export interface DriftFinding {
  kind: DriftFindingKind
  severity: DriftSeverity
  location: DriftLocation
  path: string
  expected: string
  seen: string
  count: number
  firstAt: string
  lastAt: string
  /** The first exchange that showed it, its value redacted like the inspector's. */
  example: { requestId: string; status: number; value: unknown }
}

export interface DriftOperation {
  /** Null for a path the document has no operation for (counted, never checked). */
  operationId: string | null
  method: string
  path: string
  calls: number
  findings: DriftFinding[]
}

export interface DriftReport {
  coverage: { seen: number; documented: number; unseen: string[] }
  operations: DriftOperation[]
}

/** What one exchange showed, for the inspector's detail pane. */
export interface ExchangeDrift extends ExchangeMark {
  requestId: string
  operationId: string | null
  findings: Omit<DriftFinding, 'count' | 'firstAt' | 'lastAt'>[]
}

export interface DriftLog {
  /**
   * One checked exchange. `arrivedAt`: when the request arrived as the inspector reads it (the
   * drift check's server plugin knows), else the forwarding's own start.
   */
  record(exchange: ForwardedExchange, checked: CheckedExchange, arrivedAt?: string): void
  /** An exchange whose check failed: no findings, but it still stands beside its neighbours in the pairing. */
  unchecked(exchange: ForwardedExchange, arrivedAt?: string): void
  report(): DriftReport
  /** The findings of one exchange (by the forwarded request's id, as the server's log names it), null when it had none or is forgotten. */
  ofRequest(requestId: string): ExchangeDrift | null
  /** The drifted exchange an inspector entry shows (entryDistance pairs them), null when its own had no findings. */
  ofEntry(entry: InspectedExchange): ExchangeDrift | null
  /**
   * The exchanges with findings an inspector entry can be paired with (no clean exchange is
   * indistinguishable from them), oldest first, each with how many.
   */
  flagged(): (ExchangeMark & { requestId: string; findings: number; errors: number })[]
  clear(): void
}

export interface DriftLogOptions {
  /** The operationIds the document has (coverage counts those seen). */
  documented: () => readonly string[]
  /** Header names whose values are credentials (the product credential headers: the prefix is a setting). */
  credentialHeaders: () => readonly string[]
  /** Told when something new was found or cleared (the change feed). */
  onChange?: () => void
  /** Exchanges whose findings are kept for the inspector. */
  requestCapacity?: number
}

/** Distinct undocumented paths kept apart; the rest share one row. */
const MAX_UNDOCUMENTED_PATHS = 100
/** Finding groups kept per operation (a wildly different upstream cannot grow the report without end). */
const MAX_GROUPS_PER_OPERATION = 200
/** An example's JSON is cut to this many characters. */
const MAX_EXAMPLE_CHARS = 400
/** Checked exchanges of each kind, clean and drifted, kept per drifted one to find its look-alikes. */
const MARKS_PER_FLAGGED = 2

/** A checked exchange as the pairing reads it. */
type Mark = ExchangeMark & { requestId: string; drifted: boolean }

/**
 * The drift report in memory: per operation, the calls seen and the findings grouped by kind,
 * location and path, each with count, first and last seen and one redacted example. It lives as
 * long as the server (DELETE /_emulator/drift clears it); nothing of it is written to disk.
 */
export function createDriftLog(options: DriftLogOptions): DriftLog {
  const capacity = options.requestCapacity ?? 1000
  let operations = new Map<string, DriftOperation>()
  let byRequest = new Map<string, ExchangeDrift>()
  // Every checked exchange lately, clean or not. The Requests screen sees only the drifted ones, so
  // a drifted exchange that a clean look-alike arrived right beside is offered to no entry
  // (ambiguous): the clean one's entry could otherwise take it. Drifted look-alikes are all offered
  // (an entry takes the nearest): a platform that drifts on every call keeps its marks in a burst.
  // Clean and drifted marks are kept apart, as only a clean and a drifted one make a pair: a new
  // mark is compared with the other kind only (on a clean platform, with none), not with them all.
  let marks: Record<'clean' | 'drifted', Mark[]> = { clean: [], drifted: [] }
  let ambiguous = new Set<string>()
  const keptMarks = capacity * MARKS_PER_FLAGGED

  const markOut = (mark: Mark) => {
    for (const other of mark.drifted ? marks.clean : marks.drifted) {
      if (other.requestId === mark.requestId || !indistinguishable(other, mark)) continue
      const drifted = mark.drifted ? mark.requestId : other.requestId
      if (byRequest.has(drifted)) ambiguous.add(drifted)
    }
    const own = mark.drifted ? marks.drifted : marks.clean
    own.push(mark)
    // Trimmed a quarter at a time: copying the list on every call cost more than the comparisons.
    if (own.length > keptMarks + keptMarks / 4) own.splice(0, own.length - keptMarks)
  }
  const pairable = () => [...byRequest.values()].filter((entry) => !ambiguous.has(entry.requestId))

  const operationRow = (exchange: ForwardedExchange, checked: CheckedExchange): DriftOperation => {
    const documented = checked.operation
    let key = documented ? documented.operationId : `${exchange.method.toUpperCase()} ${exchange.path}`
    const undocumentedCount = [...operations.values()].filter((row) => row.operationId === null).length
    if (!documented && !operations.has(key) && undocumentedCount >= MAX_UNDOCUMENTED_PATHS) key = 'other'
    let row = operations.get(key)
    if (!row) {
      row = {
        operationId: documented?.operationId ?? null,
        method: documented?.method ?? (key === 'other' ? '*' : exchange.method.toUpperCase()),
        path: documented?.path ?? (key === 'other' ? '(other undocumented paths)' : redactUrl(exchange.path)),
        calls: 0,
        findings: []
      }
      operations.set(key, row)
    }
    return row
  }

  return {
    record(exchange, checked, arrivedAt) {
      const row = operationRow(exchange, checked)
      const firstCall = row.calls === 0
      row.calls += 1
      const secrets = secretValuesOf(exchange, options.credentialHeaders())
      const shown = checked.findings.map((finding) => present(finding, exchange, secrets))
      for (const finding of shown) {
        const group = row.findings.find(
          (item) => item.kind === finding.kind && item.location === finding.location && item.path === finding.path
        )
        if (group) {
          group.count += 1
          group.lastAt = exchange.startedAt
        } else if (row.findings.length < MAX_GROUPS_PER_OPERATION) {
          row.findings.push({ ...finding, count: 1, firstAt: exchange.startedAt, lastAt: exchange.startedAt })
        }
      }
      const mark = { requestId: exchange.requestId, ...markOf(exchange, arrivedAt), drifted: shown.length > 0 }
      if (shown.length > 0) {
        byRequest.delete(exchange.requestId)
        const { drifted: _drifted, ...drift } = mark
        byRequest.set(exchange.requestId, { ...drift, operationId: row.operationId, findings: shown })
        while (byRequest.size > capacity) {
          const oldest = byRequest.keys().next().value as string
          byRequest.delete(oldest)
          ambiguous.delete(oldest)
        }
      }
      markOut(mark)
      if (shown.length > 0 || firstCall) options.onChange?.()
    },
    unchecked(exchange, arrivedAt) {
      markOut({ requestId: exchange.requestId, ...markOf(exchange, arrivedAt), drifted: false })
    },
    report() {
      const documented = options.documented()
      const seen = new Set([...operations.values()].map((row) => row.operationId).filter((id) => id !== null))
      const rows = [...operations.values()].map((row) => ({
        ...row,
        findings: [...row.findings].sort(
          (a, b) => severityRank(a.severity) - severityRank(b.severity) || a.path.localeCompare(b.path)
        )
      }))
      rows.sort(
        (a, b) =>
          Number(a.operationId === null) - Number(b.operationId === null) ||
          `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`)
      )
      return {
        coverage: {
          seen: documented.filter((id) => seen.has(id)).length,
          documented: documented.length,
          unseen: documented.filter((id) => !seen.has(id))
        },
        operations: structuredClone(rows)
      }
    },
    ofRequest(requestId) {
      const entry = byRequest.get(requestId)
      return entry ? structuredClone(entry) : null
    },
    ofEntry(entry) {
      // The same candidates and rule as the Requests screen's mark (flagged(), then entryDistance).
      let best: ExchangeDrift | null = null
      let bestDistance = Number.POSITIVE_INFINITY
      for (const candidate of pairable()) {
        const distance = entryDistance(entry, candidate)
        if (distance !== null && distance < bestDistance) {
          best = candidate
          bestDistance = distance
        }
      }
      return best ? structuredClone(best) : null
    },
    flagged() {
      return pairable().map((entry) => ({
        requestId: entry.requestId,
        method: entry.method,
        path: entry.path,
        status: entry.status,
        at: entry.at,
        findings: entry.findings.length,
        errors: entry.findings.filter((finding) => finding.severity === 'error').length
      }))
    },
    clear() {
      operations = new Map()
      byRequest = new Map()
      marks = { clean: [], drifted: [] }
      ambiguous = new Set()
      options.onChange?.()
    }
  }
}

/** The exchange as the inspector shows it (its path and query redacted the same way). */
function markOf(exchange: ForwardedExchange, arrivedAt: string | undefined): ExchangeMark {
  const url = exchange.rawQuery === '' ? exchange.path : `${exchange.path}?${exchange.rawQuery}`
  return {
    method: exchange.method.toUpperCase(),
    path: redactUrl(url),
    status: exchange.status,
    at: arrivedAt ?? exchange.startedAt
  }
}

function severityRank(severity: DriftSeverity): number {
  return severity === 'error' ? 0 : 1
}

/** A finding as it is kept and shown: its severity, and its texts and example redacted. */
function present(
  finding: ExchangeFinding,
  exchange: ForwardedExchange,
  secrets: readonly string[]
): ExchangeDrift['findings'][number] {
  // What the request sent as a credential first, whole: previewed by its shape first, it would no
  // longer be found, and its preview would show (docs/upstream.md says hidden whole).
  const hide = (text: string) => redactText(hideValues(text, secrets))
  return {
    kind: finding.kind,
    severity: driftSeverityOf(finding.kind, exchange.status),
    location: finding.location,
    path: hide(finding.path),
    expected: hide(finding.expected),
    seen: hide(finding.seen),
    example: {
      requestId: exchange.requestId,
      status: exchange.status,
      value: exampleOf(finding.value, finding.path, secrets)
    }
  }
}

function exampleOf(value: unknown, path: string, secrets: readonly string[]): unknown {
  if (value === undefined) return null
  // The request's own credentials are hidden whole first, as in `present`; then the value is
  // shown without its field: redacted under its field's name, so an opaque value of a
  // secret-named field (`$.download_token`) is hidden as the inspector hides it.
  const unhidden = JSON.stringify(value) ?? 'null'
  const hiddenText = hideValues(unhidden, secrets)
  let withoutCredentials: unknown = value
  if (hiddenText !== unhidden) {
    try {
      withoutCredentials = JSON.parse(hiddenText) as unknown
    } catch {
      // A credential spanning JSON's own syntax: the text, with it hidden, is the example.
      withoutCredentials = hiddenText
    }
  }
  const field = /([^.[\]$]+)(?:\[\])*$/.exec(path)?.[1] ?? ''
  const redacted = (redactJson({ [field]: withoutCredentials }) as Record<string, unknown>)[field]
  const text = redactText(JSON.stringify(redacted) ?? 'null')
  if (text.length > MAX_EXAMPLE_CHARS) return `${text.slice(0, MAX_EXAMPLE_CHARS)}...`
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/**
 * The credentials this exchange's request carried, as literal values: whatever an upstream
 * echoes back of them is hidden whole, whatever it looks like.
 */
function secretValuesOf(exchange: ForwardedExchange, credentialHeaders: readonly string[]): string[] {
  const values: string[] = []
  const names = new Set([...credentialHeaders, 'authorization', 'proxy-authorization', 'cookie', 'x-emulator-token'])
  for (const [name, raw] of Object.entries(exchange.requestHeaders)) {
    if (raw === undefined || !names.has(name.toLowerCase())) continue
    for (const value of typeof raw === 'string' ? [raw] : raw) {
      values.push(value.trim())
      const scheme = /^[A-Za-z][A-Za-z0-9_-]*\s+(\S.*)$/.exec(value.trim())
      if (scheme?.[1]) values.push(scheme[1])
    }
  }
  if (exchange.requestBody !== null && exchange.requestBody.length > 0) {
    try {
      collectSecretFields(JSON.parse(exchange.requestBody.toString('utf8')) as unknown, values, 0)
    } catch {
      // Not JSON: nothing named to collect.
    }
  }
  const query = new URLSearchParams(exchange.rawQuery)
  for (const [key, value] of query) if (SECRET_FIELD_NAMES.has(key.toLowerCase())) values.push(value)
  return values.filter((value) => value.length >= 8)
}

function collectSecretFields(value: unknown, into: string[], depth: number): void {
  if (depth > 8 || value === null || typeof value !== 'object') return
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string' && SECRET_FIELD_NAMES.has(key.toLowerCase())) into.push(item)
    else collectSecretFields(item, into, depth + 1)
  }
}
