import type { Clock } from '../clock/clock'
import { newId } from '../crypto/random'
import { DomainError } from '../errors/domain-error'
import type { Store } from '../store/store'
import type { ForwardedExchange, ForwardedExchangeObserver } from '../upstream/forwarded-exchange'
import { createFingerprinter, newFingerprintSalt } from './fingerprints'
import type { Fingerprinter, FingerprintRules } from './fingerprints'
import { toRecordedExchange } from './recorded-exchange'
import { FINGERPRINT_ALGORITHM, RECORDING_FORMAT, RECORDING_VERSION } from './recording-format'
import type { RecordedExchange, RecordingDocument, RecordingSummary } from './recording-format'
import { createRecordingRepository } from './recording-repository'
import type { RecordingRow } from './recording-repository'
import { firstSecretIn } from './secret-guard'

export interface RecordingServiceOptions {
  store: Store
  clock: Clock
}

/** What the server knows and the core does not: the credential header names in force, and the admin token. */
export interface RecordingProtection {
  /** The credential header names in force (they follow the header prefix setting). */
  fingerprintRules: () => FingerprintRules
  /** Values that must never be written whatever their shape (the admin token). */
  secretLiterals: readonly string[]
}

export interface RecordingService extends ForwardedExchangeObserver {
  /** Keeps the exchange while a recording runs. */
  observe(exchange: ForwardedExchange): void
  /** Set by the server before the first exchange is observed. */
  protect(protection: RecordingProtection): void
  /** Starts a recording (a running one stops first: one records at a time). */
  start(input: { name?: string | undefined; upstreamUrl: string | null }): RecordingSummary
  stop(id: string): RecordingSummary
  list(): RecordingSummary[]
  document(id: string): RecordingDocument
  remove(id: string): void
  /** The fingerprinter of a recording's salt with the rules in force (replay and scenarios use it). */
  fingerprinterFor(salt: string): Fingerprinter
  /** Where a document still holds a secret's shape (the JSON path), or null. */
  firstSecretIn(document: unknown): string | null
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

export function createRecordingService(options: RecordingServiceOptions): RecordingService {
  const repository = createRecordingRepository(options.store)
  const { clock } = options
  let protection: RecordingProtection = {
    fingerprintRules: () => ({ credentialHeaders: new Set() }),
    secretLiterals: []
  }

  const summaryOf = (id: string): RecordingSummary => {
    const summary = repository.list().find((item) => item.id === id)
    if (!summary) throw notFound(id)
    return summary
  }
  const rowOf = (id: string): RecordingRow => {
    const row = repository.find(id)
    if (!row) throw notFound(id)
    return row
  }

  // The running recording, read once per exchange from the store.
  let cached: { id: string; seq: number; salt: string } | null = null
  const fingerprinterFor = (salt: string) => createFingerprinter(salt, protection.fingerprintRules())

  return {
    protect(given) {
      protection = given
      cached = null
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
      options.store.transaction(() => {
        const running = repository.running()
        if (running) repository.stop(running.id, now)
        repository.insert({
          id,
          name: name?.trim() || `Recording ${now.slice(0, 19).replace('T', ' ')}`,
          salt: newFingerprintSalt(),
          upstreamUrl: withoutUserInfo(upstreamUrl),
          startedAt: now,
          stoppedAt: null,
          refused: 0
        })
      })
      cached = null
      return summaryOf(id)
    },
    stop(id) {
      rowOf(id)
      repository.stop(id, clock.nowIso())
      cached = null
      return summaryOf(id)
    },
    list: () => repository.list(),
    document(id) {
      const row = rowOf(id)
      const document: RecordingDocument = {
        format: RECORDING_FORMAT,
        version: RECORDING_VERSION,
        id: row.id,
        name: row.name,
        startedAt: row.startedAt,
        stoppedAt: row.stoppedAt,
        upstreamUrl: row.upstreamUrl,
        fingerprints: { algorithm: FINGERPRINT_ALGORITHM, salt: row.salt },
        refused: row.refused,
        exchanges: repository.exchangesOf(id)
      }
      // Every exchange was checked when written; the whole is checked again before it leaves.
      const where = firstSecretIn(document, protection.secretLiterals)
      if (where !== null) throw new Error(`recording ${id} holds a value with a secret's shape at ${where}`)
      return document
    },
    remove(id) {
      if (!repository.remove(id)) throw notFound(id)
      if (cached?.id === id) cached = null
    },
    fingerprinterFor,
    firstSecretIn: (document) => firstSecretIn(document, protection.secretLiterals),
    observe(exchange: ForwardedExchange) {
      const running = repository.running()
      if (!running) return
      if (cached?.id !== running.id) {
        cached = { id: running.id, seq: repository.nextSeq(running.id), salt: running.salt }
      }
      // One fingerprinter per exchange: it knows this request's credentials, to replace wherever they are echoed.
      const fingerprints = createFingerprinter(cached.salt, protection.fingerprintRules(), exchange.requestHeaders)
      const recorded = withStreamedDigests(toRecordedExchange(exchange, cached.seq, fingerprints), exchange)
      // Refused when written, not shipped: an exchange that still holds a secret's shape, or one of
      // its request's credentials in a form the fingerprinting missed, is left out and counted.
      if (firstSecretIn(recorded, [...protection.secretLiterals, ...fingerprints.echoedValues]) !== null) {
        repository.countRefused(running.id)
        return
      }
      repository.appendExchange(running.id, recorded)
      cached.seq += 1
    }
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
