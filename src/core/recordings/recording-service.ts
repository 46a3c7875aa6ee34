import type { Clock } from '../clock/clock'
import { newId } from '../crypto/random'
import { DomainError, isDomainError } from '../errors/domain-error'
import type { Store } from '../store/store'
import type { ForwardedExchange, ForwardedExchangeObserver } from '../upstream/forwarded-exchange'
import { createFingerprinter, newFingerprintSalt } from './fingerprints'
import type { Fingerprinter, FingerprintRules, HeaderSource } from './fingerprints'
import { lostExchangesFileFor } from './lost-exchanges-file'
import { toRecordedExchange } from './recorded-exchange'
import { FINGERPRINT_ALGORITHM, RECORDING_FORMAT, RECORDING_VERSION } from './recording-format'
import type { RecordedExchange, RecordingDocument, RecordingSummary } from './recording-format'
import { createRecordingRepository } from './recording-repository'
import type { RecordingRow } from './recording-repository'
import { createRecordingWriter } from './recording-writer'
import type { RecordingQueueLimits, RecordingStopReport, RecordingWriteNotice } from './recording-writer'
import { firstSecretIn } from './secret-guard'

export interface RecordingServiceOptions {
  store: Store
  clock: Clock
  /** What may wait in memory while storage refuses writes (default DEFAULT_QUEUE_LIMITS). */
  queueLimits?: RecordingQueueLimits | undefined
}

/** What the server knows and the core does not: the credential header names in force, and the admin token. */
export interface RecordingProtection {
  /** The credential header names in force (they follow the header prefix setting). */
  fingerprintRules: () => FingerprintRules
  /** Values that must never be written whatever their shape (the admin token). */
  secretLiterals: readonly string[]
}

export interface RecordingService extends ForwardedExchangeObserver {
  /**
   * Keeps the exchange while a recording runs: written at once, or, while storage refuses writes,
   * kept in memory (bounded) and written in order once it takes them (./recording-writer.ts).
   */
  observe(exchange: ForwardedExchange): void
  /** Set by the server before the first exchange is observed. */
  protect(protection: RecordingProtection): void
  /** Starts a recording (a running one stops first: one records at a time). */
  start(input: { name?: string | undefined; upstreamUrl: string | null }): RecordingSummary
  stop(id: string): RecordingSummary
  list(): RecordingSummary[]
  document(id: string): RecordingDocument
  remove(id: string): void
  /**
   * The fingerprinter of a recording's salt with the rules in force (replay and scenarios use it);
   * given a request's headers, it also replaces that request's credentials wherever they are echoed,
   * as recording did.
   */
  fingerprinterFor(salt: string, echoesOf?: HeaderSource): Fingerprinter
  /** Where a document still holds a secret's shape (the JSON path), or null. */
  firstSecretIn(document: unknown): string | null
  /** What the writer has to say (storage refusing writes, and taking them again): for the server's log. */
  onNotice(listener: (notice: RecordingWriteNotice) => void): () => void
  /** Writes what waits, or counts it as lost; called when the server closes, before the store. */
  close(): Promise<RecordingStopReport>
}

/** A URL without user info: a recording names where it was made, never with what password. */
function withoutUserInfo(url: string | null): string | null {
  if (url === null) return null
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    return parsed.toString()
  } catch {
    return null
  }
}

/** The running recording as the service keeps it between exchanges. */
interface RunningRecording {
  id: string
  salt: string
  nextSeq: number
  /** What the document's upstreamUrl says, or will once written: given at start, or its first exchange's. */
  upstreamUrl: string | null
  /** Whether upstreamUrl is in the database yet. */
  upstreamNamed: boolean
}

export function createRecordingService(options: RecordingServiceOptions): RecordingService {
  const { store, clock } = options
  const repository = createRecordingRepository(store)
  const writer = createRecordingWriter({
    store,
    repository,
    lostFile: lostExchangesFileFor(store.path),
    limits: options.queueLimits
  })
  let protection: RecordingProtection = {
    fingerprintRules: () => ({ credentialHeaders: new Set() }),
    secretLiterals: []
  }

  const rowOf = (id: string): RecordingRow => {
    const row = repository.find(id)
    if (!row) throw notFound(id)
    return row
  }
  /** A summary with what still waits in memory counted in: what the recording holds once written. */
  const withWaiting = (summary: RecordingSummary): RecordingSummary => {
    const waiting = writer.countWaiting(summary.id)
    return {
      ...summary,
      exchanges: summary.exchanges + waiting.exchanges,
      refused: summary.refused + waiting.refused,
      lost: summary.lost + waiting.lost
    }
  }
  const summaryOf = (id: string): RecordingSummary => {
    const summary = repository.list().find((item) => item.id === id)
    if (!summary) throw notFound(id)
    return withWaiting(summary)
  }

  /**
   * The running recording, kept here so that a forwarded call with none running costs no query.
   * Only this service writes the recordings table: start, stop and remove set it; a reset, a
   * preset or a scenario import leave recordings alone (DATA_TABLES holds neither table).
   * `undefined`: not known (at creation, or after a write failed for another reason than storage).
   */
  let running: RunningRecording | null | undefined
  const runningRecording = () => {
    if (running !== undefined) return running
    const row = repository.running()
    running = row
      ? {
          id: row.id,
          salt: row.salt,
          upstreamUrl: row.upstreamUrl,
          upstreamNamed: row.upstreamUrl !== null,
          // Exchanges still waiting in memory have their places already.
          nextSeq: Math.max(repository.nextSeq(row.id), writer.lastSeqWaiting(row.id) + 1)
        }
      : null
    return running
  }
  runningRecording()
  writer.onNotice((notice) => {
    if (notice.kind === 'error') running = undefined
  })
  const fingerprinterFor = (salt: string, echoesOf?: HeaderSource) =>
    createFingerprinter(salt, protection.fingerprintRules(), echoesOf)
  /**
   * A recording started while forwarding was off names no upstream: its first exchange's does, so
   * the document says where it was made. While storage refuses the recording's writes, the first
   * exchange after they pass names it: a try meanwhile would fail too, after a SQLite wait each.
   */
  const nameUpstream = (recording: RunningRecording) => {
    const url = recording.upstreamUrl
    if (url === null || writer.refusedByStorage()) return
    try {
      store.transaction(() => repository.nameUpstream(recording.id, url), { background: true })
      recording.upstreamNamed = true
    } catch (error) {
      if (!isDomainError(error) || !error.code.startsWith('STORAGE_')) throw error
    }
  }

  return {
    protect(given) {
      protection = given
    },
    start({ name, upstreamUrl }) {
      // The name travels with the document: a key or token typed into it would ship with it.
      if (name != null && firstSecretIn(name, protection.secretLiterals) !== null) {
        throw new DomainError(
          'VALIDATION_ERROR',
          'The recording name has the shape of a secret: name it without one.',
          {
            details: { details: [{ location: 'body', path: 'name', problem: 'has the shape of a secret' }] }
          }
        )
      }
      const now = clock.nowIso()
      const id = newId('rec')
      const salt = newFingerprintSalt()
      const named = withoutUserInfo(upstreamUrl)
      store.transaction(() => {
        const current = repository.running()
        if (current) repository.stop(current.id, now)
        repository.insert({
          id,
          name: name?.trim() || `Recording ${now.slice(0, 19).replace('T', ' ')}`,
          salt,
          upstreamUrl: named,
          startedAt: now,
          stoppedAt: null,
          refused: 0,
          lost: 0
        })
      })
      running = { id, salt, nextSeq: 1, upstreamUrl: named, upstreamNamed: named !== null }
      return summaryOf(id)
    },
    stop(id) {
      rowOf(id)
      // Exchanges still waiting in memory were observed while it ran: they are written to it later.
      store.transaction(() => repository.stop(id, clock.nowIso()))
      if (running?.id === id) running = null
      return summaryOf(id)
    },
    list: () => repository.list().map(withWaiting),
    document(id) {
      const row = rowOf(id)
      const waiting = writer.waitingFor(id)
      const document: RecordingDocument = {
        format: RECORDING_FORMAT,
        version: RECORDING_VERSION,
        id: row.id,
        name: row.name,
        startedAt: row.startedAt,
        stoppedAt: row.stoppedAt,
        upstreamUrl: row.upstreamUrl,
        fingerprints: { algorithm: FINGERPRINT_ALGORITHM, salt: row.salt },
        refused: row.refused + waiting.refused,
        lost: row.lost + waiting.lost,
        // Written ones first: whatever waits in memory was observed after them.
        exchanges: [...repository.exchangesOf(id), ...waiting.exchanges]
      }
      // Every exchange was checked when observed; the whole is checked again before it leaves.
      const where = firstSecretIn(document, protection.secretLiterals)
      if (where !== null) throw new Error(`recording ${id} holds a value with a secret's shape at ${where}`)
      return document
    },
    remove(id) {
      if (!store.transaction(() => repository.remove(id))) throw notFound(id)
      writer.forget(id)
      if (running?.id === id) running = null
    },
    fingerprinterFor,
    firstSecretIn: (document) => firstSecretIn(document, protection.secretLiterals),
    observe(exchange: ForwardedExchange) {
      const recording = runningRecording()
      if (!recording) return
      const upstreamUrl = withoutUserInfo(exchange.upstreamUrl)
      // The first exchange names the upstream of one started while forwarding was off (in memory
      // at once, so the exchanges after it are compared with it even while its write waits).
      recording.upstreamUrl ??= upstreamUrl
      if (!recording.upstreamNamed) nameUpstream(recording)
      // One fingerprinter per exchange: it knows this request's credentials, to replace wherever they are echoed.
      const fingerprints = createFingerprinter(recording.salt, protection.fingerprintRules(), exchange.requestHeaders)
      const recorded = withStreamedDigests(toRecordedExchange(exchange, recording.nextSeq, fingerprints), exchange)
      // The upstream was changed while it ran: the exchange says where it went.
      if (upstreamUrl !== null && upstreamUrl !== recording.upstreamUrl) recorded.upstreamUrl = upstreamUrl
      // Refused when written, not shipped: an exchange that still holds a secret's shape, or one of
      // its request's credentials in a form the fingerprinting missed, is left out and counted.
      if (firstSecretIn(recorded, [...protection.secretLiterals, ...fingerprints.echoedValues]) !== null) {
        writer.refuse(recording.id)
        return
      }
      // A lost exchange (over the memory bound) takes no place: seq stays 1, 2, 3 ... as refused ones do.
      if (writer.add(recording.id, recording.nextSeq, JSON.stringify(recorded))) recording.nextSeq += 1
    },
    onNotice: (listener) => writer.onNotice(listener),
    close: () => writer.close()
  }
}

/**
 * A body the exchange holds only the first MiB of is kept as the size and SHA-256 counted over all
 * of it (docs/upstream.md): its cut copy would give the wrong size and no digest (or, for a
 * request, the digest of its first MiB).
 */
function withStreamedDigests(recorded: RecordedExchange, exchange: ForwardedExchange): RecordedExchange {
  const request = exchange.requestBodyWhole
  if (request && exchange.requestBody !== null && request.bytes > exchange.requestBody.length) {
    recorded.request.body = { kind: 'digest', bytes: request.bytes, sha256: request.sha256 }
  }
  const response = exchange.responseBodyWhole
  if (response && exchange.responseBodyTruncated) {
    recorded.response.body = { kind: 'digest', bytes: response.bytes, sha256: response.sha256 }
  }
  return recorded
}

function notFound(id: string): DomainError {
  const shown = /^rec_[A-Za-z0-9]{1,40}$/.test(id) ? ` ${id}` : ''
  return new DomainError('RECORDING_NOT_FOUND', `No recording${shown} exists.`)
}
