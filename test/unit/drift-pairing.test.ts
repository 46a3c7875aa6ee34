import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'

import { createDriftLog } from '../../src/core/drift/drift-report'
import type { CheckedExchange } from '../../src/core/drift/exchange-check'
import type { ForwardedExchange } from '../../src/core/upstream/forwarded-exchange'
import { entryDistance, indistinguishable, SAME_EXCHANGE_WINDOW_MS } from '../../src/shared/contract/drift'
import type { InspectedExchange } from '../../src/shared/contract/drift'

// docs/upstream.md: an inspector entry is paired with a checked exchange by method, redacted path,
// status and arrival time (both read the same way); only an entry the upstream answered can be one,
// and never with another request's exchange.
describe('pairing an inspector entry with its drift', () => {
  const checked = { method: 'POST', path: '/api/license/v1/validate', status: 200, at: '2026-11-27T08:00:00.000Z' }

  it('pairs a forwarded entry of the same request, by how far apart they arrived', () => {
    expect(entryDistance({ ...checked, at: '2026-11-27T08:00:00.002Z', answeredBy: 'upstream' }, checked)).toBe(2)
  })

  it('never pairs an entry the emulator or a recording answered, however alike', () => {
    for (const answeredBy of ['emulator', 'recording', undefined] as const)
      expect(entryDistance({ ...checked, answeredBy }, checked)).toBeNull()
  })

  it('does not pair another status, path, or a request that arrived outside the window', () => {
    expect(entryDistance({ ...checked, status: 401, answeredBy: 'upstream' }, checked)).toBeNull()
    expect(entryDistance({ ...checked, path: '/api/license/v1/activate', answeredBy: 'upstream' }, checked)).toBeNull()
    const later = new Date(Date.parse(checked.at) + SAME_EXCHANGE_WINDOW_MS + 1).toISOString()
    expect(entryDistance({ ...checked, at: later, answeredBy: 'upstream' }, checked)).toBeNull()
    // The next request of a plugin's loop, well within the 2 s the pairing once allowed.
    expect(entryDistance({ ...checked, at: '2026-11-27T08:00:00.250Z', answeredBy: 'upstream' }, checked)).toBeNull()
  })

  it('calls two alike exchanges indistinguishable when an entry could fall within the window of either', () => {
    const at = (ms: number) => new Date(Date.parse(checked.at) + ms).toISOString()
    expect(indistinguishable(checked, { ...checked, at: at(2 * SAME_EXCHANGE_WINDOW_MS) })).toBe(true)
    expect(indistinguishable(checked, { ...checked, at: at(2 * SAME_EXCHANGE_WINDOW_MS + 1) })).toBe(false)
    expect(indistinguishable(checked, { ...checked, status: 401 })).toBe(false)
  })
})

describe('the drift log pairs each entry with its own exchange only', () => {
  const T0 = Date.parse('2026-11-27T08:00:00.000Z')
  const at = (ms: number) => new Date(T0 + ms).toISOString()
  const NOT_JSON: CheckedExchange = {
    operation: null,
    findings: [{ kind: 'NOT_JSON', location: 'body', path: '$', expected: 'application/json', seen: 'text/html' }]
  }
  const CLEAN: CheckedExchange = { operation: null, findings: [] }

  function exchange(): ForwardedExchange {
    return {
      requestId: `req-${randomBytes(3).toString('hex')}`,
      method: 'POST',
      path: '/api/license/v1/validate',
      rawQuery: '',
      requestHeaders: {},
      requestBody: null,
      upstreamUrl: 'http://127.0.0.1:1',
      status: 200,
      responseHeaders: {},
      responseBody: null,
      responseBodyTruncated: false,
      requestBodyWhole: null,
      responseBodyWhole: null,
      // The forwarding's own start: later than the arrival when a fault rule held the request back.
      startedAt: at(5_000),
      durationMs: 3
    }
  }
  const entry = (ms: number): InspectedExchange => ({
    method: 'POST',
    path: '/api/license/v1/validate',
    status: 200,
    at: at(ms),
    answeredBy: 'upstream'
  })
  const newLog = () => createDriftLog({ documented: () => [], credentialHeaders: () => [] })

  it('gives a clean exchange near a drifted one no drift, and the drifted one its own', () => {
    const log = newLog()
    const drifted = exchange()
    log.record(drifted, NOT_JSON, at(0))
    log.record(exchange(), CLEAN, at(40))
    log.record(exchange(), CLEAN, at(900))
    expect(log.ofEntry(entry(1))?.requestId).toBe(drifted.requestId)
    expect(log.ofEntry(entry(40))).toBeNull()
    expect(log.ofEntry(entry(900))).toBeNull()
    expect(log.flagged().map((item) => [item.requestId, item.at])).toEqual([[drifted.requestId, at(0)]])
  })

  it('offers no entry a drifted exchange that a clean look-alike, even one checked later, arrived right beside', () => {
    const log = newLog()
    const drifted = exchange()
    log.record(drifted, NOT_JSON, at(0))
    expect(log.flagged()).toHaveLength(1)
    // Checked after it (checks end in any order), arrived 3 ms after it: an entry cannot tell them apart.
    log.record(exchange(), CLEAN, at(3))
    expect(log.flagged()).toEqual([])
    expect(log.ofEntry(entry(0))).toBeNull()
    expect(log.ofEntry(entry(3))).toBeNull()
    // Its findings still count in the report.
    expect(log.ofRequest(drifted.requestId)?.findings).toHaveLength(1)

    // An exchange whose check failed stands beside its neighbours too.
    const other = newLog()
    other.record(drifted, NOT_JSON, at(0))
    other.unchecked(exchange(), at(4))
    expect(other.ofEntry(entry(4))).toBeNull()
  })

  it('keeps marking a burst of drifted look-alikes, each entry with the nearest (its own)', () => {
    const log = newLog()
    const first = exchange()
    const second = exchange()
    log.record(first, NOT_JSON, at(0))
    log.record(second, NOT_JSON, at(6))
    expect(log.flagged()).toHaveLength(2)
    expect(log.ofEntry(entry(1))?.requestId).toBe(first.requestId)
    expect(log.ofEntry(entry(6))?.requestId).toBe(second.requestId)
  })

  it('reads the arrival it is given, not the forwarding start, and forgets the look-alikes on clear', () => {
    const log = newLog()
    log.record(exchange(), NOT_JSON, at(0))
    log.record(exchange(), CLEAN, at(2))
    log.clear()
    const drifted = exchange()
    log.record(drifted, NOT_JSON, at(10_000))
    expect(log.ofEntry(entry(10_001))?.requestId).toBe(drifted.requestId)
    expect(log.ofEntry(entry(5_000))).toBeNull()
  })
})
