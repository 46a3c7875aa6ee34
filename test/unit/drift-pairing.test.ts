import { describe, expect, it } from 'vitest'

import { entryDistance } from '../../src/shared/contract/drift'

// docs/upstream.md: an inspector entry is paired with a checked exchange by method, redacted path,
// status and arrival time; only an entry the upstream answered can be one.
describe('pairing an inspector entry with its drift', () => {
  const checked = { method: 'POST', path: '/api/license/v1/validate', status: 200, at: '2026-11-27T08:00:00.000Z' }

  it('pairs a forwarded entry of the same request, by how far apart they arrived', () => {
    expect(entryDistance({ ...checked, at: '2026-11-27T08:00:00.250Z', answeredBy: 'upstream' }, checked)).toBe(250)
  })

  it('never pairs an entry the emulator or a recording answered, however alike', () => {
    for (const answeredBy of ['emulator', 'recording', undefined] as const)
      expect(entryDistance({ ...checked, answeredBy }, checked)).toBeNull()
  })

  it('does not pair another status, path or a request more than 2 s apart', () => {
    expect(entryDistance({ ...checked, status: 401, answeredBy: 'upstream' }, checked)).toBeNull()
    expect(entryDistance({ ...checked, path: '/api/license/v1/activate', answeredBy: 'upstream' }, checked)).toBeNull()
    expect(entryDistance({ ...checked, at: '2026-11-27T08:00:02.500Z', answeredBy: 'upstream' }, checked)).toBeNull()
  })
})
