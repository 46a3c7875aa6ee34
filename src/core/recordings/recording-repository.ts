import type { Store } from '../store/store'
import type { RecordedExchange, RecordingSummary } from './recording-format'

export interface RecordingRow {
  id: string
  name: string
  salt: string
  upstreamUrl: string | null
  startedAt: string
  stoppedAt: string | null
  refused: number
  lost: number
}

/** The SQL of recordings: one row per recording, one per exchange (its fingerprinted JSON). */
export interface RecordingRepository {
  insert(row: RecordingRow): void
  find(id: string): RecordingRow | null
  exists(id: string): boolean
  list(): RecordingSummary[]
  /** The recording still running, if any (at most one runs). */
  running(): RecordingRow | null
  stop(id: string, at: string): void
  /** Names the upstream of a recording started while forwarding was off (a named one stays). */
  nameUpstream(id: string, upstreamUrl: string): void
  /** Writes one exchange as the JSON text it was serialized to when observed. */
  appendExchange(id: string, seq: number, json: string): void
  /** Adds to the counts of exchanges left out (refused for a secret's shape, lost to storage). */
  addCounts(id: string, counts: { refused: number; lost: number }): void
  exchangesOf(id: string): RecordedExchange[]
  nextSeq(id: string): number
  remove(id: string): boolean
}

interface StoredRow {
  id: string
  name: string
  salt: string
  upstream_url: string | null
  started_at: string
  stopped_at: string | null
  refused: number
  lost: number
}

const toRow = (row: StoredRow): RecordingRow => ({
  id: row.id,
  name: row.name,
  salt: row.salt,
  upstreamUrl: row.upstream_url,
  startedAt: row.started_at,
  stoppedAt: row.stopped_at,
  refused: row.refused,
  lost: row.lost
})

export function createRecordingRepository(store: Store): RecordingRepository {
  const { db } = store
  const insert = db.prepare(
    'INSERT INTO recordings (id, name, salt, upstream_url, started_at, stopped_at, refused, lost) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'
  )
  const find = db.prepare('SELECT * FROM recordings WHERE id = ?')
  const exists = db.prepare('SELECT 1 FROM recordings WHERE id = ?').pluck()
  const list = db.prepare(
    `SELECT r.id, r.name, r.upstream_url, r.started_at, r.stopped_at, r.refused, r.lost,
            (SELECT COUNT(*) FROM recording_exchanges e WHERE e.recording_id = r.id) AS exchanges
       FROM recordings r ORDER BY r.started_at DESC, r.id`
  )
  const running = db.prepare('SELECT * FROM recordings WHERE stopped_at IS NULL ORDER BY started_at DESC LIMIT 1')
  const stop = db.prepare('UPDATE recordings SET stopped_at = ? WHERE id = ? AND stopped_at IS NULL')
  const nameUpstream = db.prepare('UPDATE recordings SET upstream_url = ? WHERE id = ? AND upstream_url IS NULL')
  const append = db.prepare('INSERT INTO recording_exchanges (recording_id, seq, exchange) VALUES (?, ?, ?)')
  const counts = db.prepare('UPDATE recordings SET refused = refused + ?, lost = lost + ? WHERE id = ?')
  const exchanges = db.prepare('SELECT exchange FROM recording_exchanges WHERE recording_id = ? ORDER BY seq')
  const nextSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM recording_exchanges WHERE recording_id = ?')
  const remove = db.prepare('DELETE FROM recordings WHERE id = ?')
  return {
    insert: (row) =>
      void insert.run(row.id, row.name, row.salt, row.upstreamUrl, row.startedAt, row.stoppedAt, row.refused, row.lost),
    find(id) {
      const row = find.get(id) as StoredRow | undefined
      return row ? toRow(row) : null
    },
    exists: (id) => exists.get(id) !== undefined,
    list: () =>
      (list.all() as (Omit<StoredRow, 'salt'> & { exchanges: number })[]).map((row) => ({
        id: row.id,
        name: row.name,
        startedAt: row.started_at,
        stoppedAt: row.stopped_at,
        upstreamUrl: row.upstream_url,
        exchanges: row.exchanges,
        refused: row.refused,
        lost: row.lost
      })),
    running() {
      const row = running.get() as StoredRow | undefined
      return row ? toRow(row) : null
    },
    stop: (id, at) => void stop.run(at, id),
    nameUpstream: (id, upstreamUrl) => void nameUpstream.run(upstreamUrl, id),
    appendExchange: (id, seq, json) => void append.run(id, seq, json),
    addCounts: (id, added) => void counts.run(added.refused, added.lost, id),
    exchangesOf: (id) =>
      (exchanges.all(id) as { exchange: string }[]).map((row) => JSON.parse(row.exchange) as RecordedExchange),
    nextSeq: (id) => (nextSeq.get(id) as { next: number }).next,
    remove: (id) => remove.run(id).changes > 0
  }
}
