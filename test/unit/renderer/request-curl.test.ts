import { describe, expect, it } from 'vitest'

import type { RequestEntry } from '../../../src/renderer/src/api/types'
import { curlOf } from '../../../src/renderer/src/screens/requests/curl'

const entry = {
  id: 7,
  at: '2026-11-27T01:00:00.000Z',
  surface: 'license-v1',
  method: 'POST',
  path: '/api/license/v1/validate',
  status: 200,
  durationMs: 3,
  authKind: 'product-credential',
  productId: 'prod_demo_synth',
  source: 'client',
  errorCode: null,
  fault: null,
  answeredBy: 'emulator',
  upstreamStatus: null,
  upstreamMs: null,
  request: {
    headers: {
      host: '127.0.0.1:4747',
      'content-type': 'application/json',
      'content-length': '60',
      'x-svc-app-id': 'app_DemoSynth0000000000001',
      'x-svc-plugin-key': 'pk_DemoS...0001',
      'x-svc-plugin-secret': 'sk_DemoS...0001',
      authorization: 'Bearer eyJhbGci...abcd'
    },
    query: {},
    body: { license_key: 'DEMO1-PERPE-TUAL0-00000-00001', instance_id: "it's-mac", token: 'eyJhb...wxyz' },
    bodyInfo: { kind: 'json', bytes: 60, truncated: false }
  },
  response: { headers: {}, body: null, bodyInfo: { kind: 'none', bytes: 0, truncated: false } }
} as RequestEntry

describe('Copy as curl', () => {
  it('rebuilds the request with placeholders where secrets were, never a value or a preview', () => {
    const command = curlOf(entry, 'http://127.0.0.1:4747/')
    expect(command).toBe(
      [
        "curl -X POST 'http://127.0.0.1:4747/api/license/v1/validate'",
        "-H 'content-type: application/json'",
        "-H 'x-svc-app-id: app_DemoSynth0000000000001'",
        "-H 'x-svc-plugin-key: <plugin key>'",
        "-H 'x-svc-plugin-secret: <plugin secret>'",
        "-H 'authorization: Bearer <token>'",
        `--data-raw '{"license_key":"DEMO1-PERPE-TUAL0-00000-00001","instance_id":"it'\\''s-mac","token":"<token>"}'`
      ].join(' \\\n  ')
    )
    expect(command).not.toContain('...')
  })
})
