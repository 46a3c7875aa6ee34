import type { Database, Statement } from 'better-sqlite3'

import type { FaultKind } from '../../shared/contract/faults'
import type { AnsweredBy, AuthKind, RequestSource, Surface } from '../../shared/contract/inspector'
import { parseStatusFilter } from './request-filter'
import type { RequestEntry, RequestFilter, RequestSummary } from './types'

interface SummaryRow {
  id: number
  at: string
  surface: string
  method: string
  path: string
  status: number
  duration_ms: number
  auth_kind: string
  product_id: string | null
  source: string
  error_code: string | null
  fault_rule_id: string | null
  fault_kind: string | null
  fault_label: string | null
  fault_stage: string | null
  answered_by: string
  upstream_status: number | null
  upstream_ms: number | null
}

const SUMMARY_COLUMNS =
  'id, at, surface, method, path, status, duration_ms, auth_kind, product_id, source, error_code, fault_rule_id, fault_kind, fault_label, ' +
  'fault_stage, answered_by, upstream_status, upstream_ms'

/** A redacted exchange as written: its summary and its request and response as JSON. */
export type StoredEntry = Omit<RequestSummary, 'id' | 'at'> & { requestJson: string; responseJson: string }

/** Every column of request_log: the only names a scenario's export or import may ask for. */
const COLUMNS = new Set([...SUMMARY_COLUMNS.split(', '), 'request_json', 'response_json'])

export interface RequestLogRepository {
  /** Writes one redacted exchange, arrived `at`; answers its id. */
  insert(at: string, entry: StoredEntry): number
  /** Deletes every row with an id up to `id` (the ring's oldest). */
  deleteUpTo(id: number): void
  /** The id of the newest row ever written (ids are never reused); 0 for none. */
  newestId(): number
  /** New ids go on after `id` at least: a new log file taking over from one that went. */
  continueIdsAfter(id: number): void
  /** Rows, and of those the UI's own calls. */
  count(): { requests: number; uiRequests: number }
  /** Every row as stored, in id order, with the named columns only. */
  rows(columns: readonly string[]): Record<string, unknown>[]
  /** Inserts one row as a scenario holds it: its values in the order of `columns`. */
  inserterOf(columns: readonly string[]): (values: readonly unknown[]) => void
  byId(id: number): RequestEntry | null
  /** Rows after `id`, oldest first. */
  newerThan(id: number, limit: number): RequestSummary[]
  /** The same rows, each with its exchange as stored (request and response JSON, a line apart). */
  exchangesNewerThan(id: number, limit: number): { summary: RequestSummary; exchangeText: string }[]
  /** Rows matching the filter, below `before` when given, newest first. */
  newestFirst(filter: RequestFilter, before: number | undefined, limit: number): RequestSummary[]
  /** Empties the log; answers how many rows went. */
  deleteAll(): number
  /** A transaction left open across calls (a scenario import's replacement), and its end. */
  begin(): void
  end(commit: boolean): void
  /** Folds the WAL into the file, so a copy of the file alone holds everything (on close). */
  foldWal(): void
}

/** The request inspector's ring (table request_log of the log's own file, src/core/store/request-log-database.ts). */
export function createRequestLogRepository(db: Database): RequestLogRepository {
  // Positional parameters, for every request recorded. The named ones were bound from an object
  // built by a rest and a spread, which better-sqlite3 reads slowly: 16-22 us a row against 1.6 in
  // plain better-sqlite3 (3 from an object literal), and the batch's SQL 39 against 23 us an entry.
  const insert = db.prepare(
    `INSERT INTO request_log (at, surface, method, path, status, duration_ms, auth_kind, product_id, source, error_code,
                              fault_rule_id, fault_kind, fault_label, fault_stage, answered_by, upstream_status, upstream_ms,
                              request_json, response_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  )
  // Deletes what is older than the `capacity` newest rows. Ids are AUTOINCREMENT and only the oldest
  // rows are ever deleted, so those are the ids up to newest - capacity: a range on the primary key.
  // (Finding the cut with ORDER BY id DESC ... OFFSET capacity walked 5,000 rows every batch,
  // 149 us an entry against 28, measured.)
  const trim = db.prepare('DELETE FROM request_log WHERE id <= ?')
  // AUTOINCREMENT's counter: the newest id even once the ring or a clear deleted that row.
  const newestId = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'request_log'").pluck()
  const raiseSequence = db.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'request_log' AND seq < ?")
  const startSequence = db.prepare(
    "INSERT INTO sqlite_sequence (name, seq) SELECT 'request_log', ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'request_log')"
  )
  const count = db.prepare(
    "SELECT COUNT(*) AS requests, COUNT(*) FILTER (WHERE source = 'ui') AS uiRequests FROM request_log"
  )
  const byId = db.prepare(`SELECT ${SUMMARY_COLUMNS}, request_json, response_json FROM request_log WHERE id = ?`)
  const newerThan = db.prepare(`SELECT ${SUMMARY_COLUMNS} FROM request_log WHERE id > ? ORDER BY id ASC LIMIT ?`)
  const exchangesNewerThan = db.prepare(
    `SELECT ${SUMMARY_COLUMNS}, request_json || char(10) || response_json AS exchange_text
       FROM request_log WHERE id > ? ORDER BY id ASC LIMIT ?`
  )
  const deleteAll = db.prepare('DELETE FROM request_log')
  const begin = db.prepare('BEGIN IMMEDIATE')
  const commitStatement = db.prepare('COMMIT')
  const rollback = db.prepare('ROLLBACK')
  // List queries differ only in which filters are set: one prepared statement per shape.
  const listStatements = new Map<string, Statement>()

  function listStatement(where: string[]): Statement {
    const sql = `SELECT ${SUMMARY_COLUMNS} FROM request_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`
    let statement = listStatements.get(sql)
    if (!statement) {
      statement = db.prepare(sql)
      listStatements.set(sql, statement)
    }
    return statement
  }

  return {
    insert(at, entry) {
      const { fault } = entry
      return Number(
        insert.run(
          at,
          entry.surface,
          entry.method,
          entry.path,
          entry.status,
          entry.durationMs,
          entry.authKind,
          entry.productId,
          entry.source,
          entry.errorCode,
          fault?.ruleId ?? null,
          fault?.kind ?? null,
          fault?.label ?? null,
          fault?.stage ?? null,
          entry.answeredBy,
          entry.upstreamStatus,
          entry.upstreamMs,
          entry.requestJson,
          entry.responseJson
        ).lastInsertRowid
      )
    },
    deleteUpTo(id) {
      trim.run(id)
    },
    newestId: () => (newestId.get() as number | undefined) ?? 0,
    continueIdsAfter(id) {
      raiseSequence.run(id, id)
      startSequence.run(id)
    },
    count: () => count.get() as { requests: number; uiRequests: number },
    rows(columns) {
      return db.prepare(`SELECT ${knownColumns(columns).join(', ')} FROM request_log ORDER BY id`).all() as Record<
        string,
        unknown
      >[]
    },
    inserterOf(columns) {
      const names = knownColumns(columns)
      const insertRow = db.prepare(
        `INSERT INTO request_log (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`
      )
      return (values) => void insertRow.run(values)
    },
    byId(id) {
      const row = byId.get(id) as (SummaryRow & { request_json: string; response_json: string }) | undefined
      if (!row) return null
      return { ...summaryOf(row), request: JSON.parse(row.request_json), response: JSON.parse(row.response_json) }
    },
    newerThan: (id, limit) => (newerThan.all(id, limit) as SummaryRow[]).map(summaryOf),
    exchangesNewerThan: (id, limit) =>
      (exchangesNewerThan.all(id, limit) as (SummaryRow & { exchange_text: string })[]).map((row) => ({
        summary: summaryOf(row),
        exchangeText: row.exchange_text
      })),
    newestFirst(filter, before, limit) {
      const { where, params } = filterSql(filter)
      if (before !== undefined) {
        where.push('id < ?')
        params.push(before)
      }
      return (listStatement(where).all(...params, limit) as SummaryRow[]).map(summaryOf)
    },
    deleteAll: () => deleteAll.run().changes,
    begin: () => void begin.run(),
    end(commit) {
      if (db.inTransaction) (commit ? commitStatement : rollback).run()
    },
    foldWal() {
      if (db.name !== ':memory:') db.pragma('wal_checkpoint(TRUNCATE)')
    }
  }
}

/** `columns` if each is a column of request_log (they come from the scenario's fixed table list, never from input). */
function knownColumns(columns: readonly string[]): readonly string[] {
  const unknown = columns.find((column) => !COLUMNS.has(column))
  if (unknown !== undefined) throw new Error(`request_log has no column ${unknown}`)
  return columns
}

/**
 * The filter as a SQL condition over request_log. The same meaning as `matchesFilter`, which
 * the live stream uses; the unit tests hold the two together.
 */
function filterSql(filter: RequestFilter): { where: string[]; params: (string | number)[] } {
  const where: string[] = []
  const params: (string | number)[] = []
  if (filter.surface) {
    where.push('surface = ?')
    params.push(filter.surface)
  }
  if (filter.status) {
    // An unparseable status matches nothing rather than everything.
    const range = parseStatusFilter(filter.status) ?? { min: 1, max: 0 }
    where.push('status BETWEEN ? AND ?')
    params.push(range.min, range.max)
  }
  if (filter.method) {
    where.push('method = ?')
    params.push(filter.method.toUpperCase())
  }
  if (filter.productId) {
    where.push('product_id = ?')
    params.push(filter.productId)
  }
  if (filter.authKind) {
    where.push('auth_kind = ?')
    params.push(filter.authKind)
  }
  if (filter.path) {
    // instr over lower(): a plain substring, so `%` and `_` in the filter mean themselves.
    where.push('instr(lower(path), ?) > 0')
    params.push(filter.path.toLowerCase())
  }
  if (filter.q) {
    // The stored exchange is redacted JSON: a search finds what the inspector shows, never a secret.
    where.push('instr(lower(path || char(10) || request_json || char(10) || response_json), ?) > 0')
    params.push(filter.q.toLowerCase())
  }
  if (filter.answeredBy) {
    where.push('answered_by = ?')
    params.push(filter.answeredBy)
  }
  if (filter.source && filter.source.length > 0) {
    where.push(`source IN (${filter.source.map(() => '?').join(', ')})`)
    params.push(...filter.source)
  }
  return { where, params }
}

function summaryOf(row: SummaryRow): RequestSummary {
  return {
    id: row.id,
    at: row.at,
    surface: row.surface as Surface,
    method: row.method,
    path: row.path,
    status: row.status,
    durationMs: row.duration_ms,
    authKind: row.auth_kind as AuthKind,
    productId: row.product_id,
    source: row.source as RequestSource,
    errorCode: row.error_code,
    fault:
      row.fault_rule_id === null
        ? null
        : {
            ruleId: row.fault_rule_id,
            kind: row.fault_kind as FaultKind,
            label: row.fault_label ?? row.fault_rule_id,
            stage: row.fault_stage === 'after' ? 'after' : 'before'
          },
    answeredBy: row.answered_by as AnsweredBy,
    upstreamStatus: row.upstream_status,
    upstreamMs: row.upstream_ms
  }
}
