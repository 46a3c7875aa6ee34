import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import { prepareEntry } from '../../src/core/inspector/redact-exchange'
import type { RequestCapture } from '../../src/core/inspector/types'
import { createFingerprinter, newFingerprintSalt } from '../../src/core/recordings/fingerprints'
import { createRecordingService } from '../../src/core/recordings/recording-service'
import { credentialValuesOf, literalReplacements, replaceLiterals } from '../../src/core/redaction/credential-values'
import { previewOf } from '../../src/core/redaction/redact'
import type { ForwardedExchange } from '../../src/core/upstream/forwarded-exchange'
import { NO_REDACTION_RULES, requestCapture } from '../support/request-capture'
import { useStoreFile } from '../support/store-file'

// A real platform's credentials need not look like the emulator's: what the request sent in its
// credential headers is a secret wherever the exchange repeats it (docs/api.md request inspector,
// docs/upstream.md "Record, replay, reproduce").
const NAMES = ['x-svc-plugin-key', 'x-svc-plugin-secret', 'x-svc-api-key']
// A quote, a backslash and a space: it reads differently raw, in JSON and in a URL.
const ODD = 'odd "secret" \\ with spaces'

describe('the credential values of a request', () => {
  it('takes the credential headers and Authorization after its scheme, longest first, none under 8 characters', () => {
    const values = credentialValuesOf(
      {
        'x-svc-plugin-key': 'platform-key-1',
        'x-svc-plugin-secret': ['hunter2hunter2hunter2'],
        'x-svc-api-key': 'short',
        authorization: 'Bearer opaque-session-7f3a',
        'x-other': 'not-a-credential-at-all'
      },
      NAMES
    )
    expect(values).toEqual([
      { value: 'hunter2hunter2hunter2', header: 'x-svc-plugin-secret', afterScheme: false },
      { value: 'opaque-session-7f3a', header: 'authorization', afterScheme: true },
      { value: 'platform-key-1', header: 'x-svc-plugin-key', afterScheme: false }
    ])
  })

  it('leaves out, when asked, values that redaction by shape finds anyway', () => {
    const headers = { 'x-svc-plugin-secret': 'sk_0123456789abcdef0123', 'x-svc-plugin-key': 'PLATFORMKEY-0042' }
    expect(credentialValuesOf(headers, NAMES, { exceptShaped: true }).map((item) => item.value)).toEqual([
      'PLATFORMKEY-0042'
    ])
    expect(credentialValuesOf(headers, NAMES)).toHaveLength(2)
  })

  it('finds a value as JSON escapes it and as a URL encodes it, and keeps the text valid', () => {
    const [credential] = credentialValuesOf({ 'x-svc-plugin-secret': ODD }, NAMES)
    const { plain, json } = literalReplacements([credential!], () => 'the "stand-in"')
    const jsonText = JSON.stringify({ a: ODD, b: `${ODD}!`, c: JSON.stringify({ inner: ODD }) })
    const replaced = replaceLiterals(jsonText, json)
    expect(JSON.parse(replaced)).toEqual({
      a: 'the "stand-in"',
      b: 'the "stand-in"!',
      c: JSON.stringify({ inner: 'the "stand-in"' })
    })
    const url = `/api/x?form=${new URLSearchParams({ v: ODD }).toString().slice(2)}&uri=${encodeURIComponent(ODD)}`
    const shown = replaceLiterals(url, plain)
    expect(new URLSearchParams(shown.split('?')[1]).getAll('form')).toEqual(['the "stand-in"'])
    expect(new URLSearchParams(shown.split('?')[1]).getAll('uri')).toEqual(['the "stand-in"'])
  })
})

describe('the inspector entry of an exchange that repeats its credentials', () => {
  const capture = (overrides: Partial<RequestCapture>): RequestCapture =>
    requestCapture({
      method: 'POST',
      url: `/api/license/v1/validate?echo=${encodeURIComponent(ODD)}`,
      status: 403,
      durationMs: 2,
      requestHeaders: { 'content-type': 'application/json', 'x-svc-plugin-secret': ODD, 'x-svc-api-key': 'abc' },
      responseHeaders: { 'content-type': 'application/json' },
      response: { kind: 'text', text: JSON.stringify({ ok: false, error: 'BAD_SECRET', sent: ODD, code: 'abc' }) },
      redaction: { ...NO_REDACTION_RULES, credentialHeaders: NAMES, hiddenHeaders: ['x-emulator-token'] },
      surface: 'license-v1',
      authKind: 'product-credential',
      answeredBy: 'upstream',
      upstream: { status: 403, durationMs: 1 },
      ...overrides
    })

  it('previews them in the path, the query and the body as the header is previewed; short ones stay', () => {
    const entry = prepareEntry(capture({}))
    const request = JSON.parse(entry.requestJson)
    const response = JSON.parse(entry.responseJson)
    expect(request.headers['x-svc-plugin-secret']).toBe(previewOf(ODD))
    expect(response.body.sent).toBe(previewOf(ODD))
    expect(request.query.echo).toBe(previewOf(ODD))
    expect(new URLSearchParams(entry.path.split('?')[1]).get('echo')).toBe(previewOf(ODD))
    // Three characters are no secret worth wiping every "abc" for.
    expect(response.body.code).toBe('abc')
    expect(entry.errorCode).toBe('BAD_SECRET')
    for (const text of [entry.requestJson, entry.responseJson, entry.path]) {
      expect(text).not.toContain('secret\\"')
      expect(text).not.toContain(encodeURIComponent(ODD))
      expect(text).not.toContain(JSON.stringify(ODD).slice(1, -1))
    }
  })

  it('shows no error code that is a credential', () => {
    const secret = 'HUNTER2_HUNTER2'
    const entry = prepareEntry(
      capture({
        url: '/api/license/v1/validate',
        requestHeaders: { 'x-svc-plugin-secret': secret },
        response: { kind: 'text', text: JSON.stringify({ ok: false, error: secret }) }
      })
    )
    expect(entry.errorCode).toBeNull()
    expect(entry.responseJson).not.toContain(secret)
  })
})

describe('a recording of an exchange that repeats its credentials', () => {
  const rules = { credentialHeaders: new Set([...NAMES, 'x-emulator-token']) }
  const headers = { 'x-svc-plugin-secret': 'hunter2hunter2hunter2', authorization: 'Bearer opaque-session-7f3a' }

  it('stands the header fingerprint wherever the value is, and leaves by-name fingerprints as replay makes them', () => {
    const salt = newFingerprintSalt()
    const recording = createFingerprinter(salt, rules, headers)
    const replaying = createFingerprinter(salt, rules)
    const secretPrint = recording.headers(headers)['x-svc-plugin-secret'] as string
    expect(secretPrint).toMatch(/^fp\.pluginsecret\.[0-9a-f]{64}$/)
    // Replay knows no echoes: the credential header itself must come out the same.
    expect(replaying.headers(headers)).toEqual(recording.headers(headers))
    expect(recording.text('/api/x/hunter2hunter2hunter2')).toBe(`/api/x/${secretPrint}`)
    expect(recording.json({ note: 'sent hunter2hunter2hunter2', auth: 'opaque-session-7f3a' })).toEqual({
      note: `sent ${secretPrint}`,
      auth: (recording.headers(headers).authorization as string).replace('Bearer ', '')
    })
    expect(recording.query('echo=hunter2hunter2hunter2')).toBe(`echo=${secretPrint}`)
    // A secret-named field is fingerprinted by its own name, echo or not, as replay does.
    expect(recording.json({ password: 'hunter2hunter2hunter2' })).toEqual(
      replaying.json({ password: 'hunter2hunter2hunter2' })
    )
    expect(replaying.text('sent hunter2hunter2hunter2')).toBe('sent hunter2hunter2hunter2')
  })

  const storeFile = useStoreFile('credential-echoes')

  it('refuses an exchange that still holds a credential where fingerprinting does not reach (a member name)', () => {
    const recordings = createRecordingService({ store: storeFile.open(), clock: createClock() })
    recordings.protect({ fingerprintRules: () => rules, secretLiterals: [] })
    const { id } = recordings.start({ upstreamUrl: null })
    const exchange = (answer: unknown): ForwardedExchange => ({
      requestId: 'req-1',
      method: 'GET',
      path: '/api/library',
      rawQuery: '',
      requestHeaders: headers,
      requestBody: null,
      upstreamUrl: 'http://upstream.test',
      status: 200,
      responseHeaders: { 'content-type': 'application/json' },
      responseBody: Buffer.from(JSON.stringify(answer)),
      responseBodyTruncated: false,
      requestBodyWhole: null,
      responseBodyWhole: null,
      startedAt: '2026-11-27T00:00:00.000Z',
      durationMs: 1
    })
    recordings.observe(exchange({ byKey: { hunter2hunter2hunter2: true } }))
    recordings.observe(exchange({ note: 'hunter2hunter2hunter2' }))
    const document = recordings.document(id)
    expect(document.refused).toBe(1)
    expect(document.exchanges).toHaveLength(1)
    expect(JSON.stringify(document)).not.toContain('hunter2hunter2hunter2')
  })
})
