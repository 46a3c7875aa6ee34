import { readFileSync } from 'node:fs'
import Ajv2020 from 'ajv/dist/2020'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'

import { createClock } from '../../src/core/clock/clock'
import type { RecordingDocument } from '../../src/core/recordings/recording-format'
import { scenarioFromRecording } from '../../src/core/recordings/recording-scenario'
import { createRecordingService } from '../../src/core/recordings/recording-service'
import { createReplay } from '../../src/core/recordings/replay'
import { firstSecretIn } from '../../src/core/recordings/secret-guard'
import type { ForwardedExchange } from '../../src/core/upstream/forwarded-exchange'
import { recordingJsonSchema } from '../../src/shared/schemas/recordings'
import { useStoreFile } from '../support/store-file'

const KEY = 'pk_CanaryKey0000000000000001'
const SECRET = 'sk_CanarySecret000000000001'
const ADMIN = 'admin-token-canary-0001'
const CREDENTIAL_HEADERS = new Set(['x-svc-plugin-key', 'x-svc-plugin-secret', 'x-svc-api-key', 'x-emulator-token'])

async function licenseToken(nonce: string): Promise<string> {
  return new SignJWT({ nonce, license: { status: 'active' } })
    .setProtectedHeader({ alg: 'HS256', typ: 'license+jwt' })
    .setAudience('app_1')
    .setSubject('lic_1')
    .setIssuedAt(1_700_000_000)
    .setExpirationTime(1_700_086_400)
    .sign(new TextEncoder().encode('a-key-of-at-least-thirty-two-bytes!!'))
}

function exchange(overrides: Partial<ForwardedExchange> & { body?: unknown; answer?: unknown }): ForwardedExchange {
  const { body, answer, ...rest } = overrides
  return {
    requestId: 'req-1',
    method: 'POST',
    path: '/api/license/v1/validate',
    rawQuery: '',
    requestHeaders: {
      host: 'upstream.test',
      connection: 'keep-alive',
      'content-type': 'application/json',
      'x-svc-app-id': 'app_1',
      'x-svc-plugin-key': KEY,
      'x-svc-plugin-secret': SECRET
    },
    requestBody: body === undefined ? null : Buffer.from(JSON.stringify(body)),
    upstreamUrl: 'http://upstream.test',
    status: 200,
    responseHeaders: { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip' },
    responseBody: answer === undefined ? null : Buffer.from(JSON.stringify(answer)),
    responseBodyTruncated: false,
    requestBodyWhole: null,
    responseBodyWhole: null,
    startedAt: '2026-11-27T00:00:00.000Z',
    durationMs: 3.25,
    ...rest
  }
}

describe('recordings', () => {
  const storeFile = useStoreFile('recordings')

  const service = () => {
    const recordings = createRecordingService({ store: storeFile.open(), clock: createClock() })
    recordings.protect({ fingerprintRules: () => ({ credentialHeaders: CREDENTIAL_HEADERS }), secretLiterals: [ADMIN] })
    return recordings
  }
  /** A strict replay of `document`, fingerprinting each live request as the recording did. */
  const strictReplay = (recordings: ReturnType<typeof service>, document: RecordingDocument) =>
    createReplay({
      document,
      settings: { strict: true, resign: false },
      fingerprintsFor: (headers) => recordings.fingerprinterFor(document.fingerprints.salt, headers),
      credentialHeaders: CREDENTIAL_HEADERS,
      clock: createClock(),
      signLicenseToken: async () => 'unused'
    })

  it('keeps exchanges in order with every secret a fingerprint, encoding headers made true', async () => {
    const recordings = service()
    const started = recordings.start({ name: 'flow', upstreamUrl: 'https://user:pw@upstream.test/' })
    const token = await licenseToken('n-1')
    recordings.observe(
      exchange({
        body: { license_key: 'AAAAA-BBBBB', instance_id: 'inst-1', nonce: 'n-1' },
        answer: { ok: true, valid: true, code: 'VALID', license_token: token }
      })
    )
    recordings.observe(
      exchange({
        method: 'GET',
        path: '/api/library',
        rawQuery: `library_token=${token}&x=1`,
        requestHeaders: { authorization: `Bearer ${token}` }
      })
    )
    recordings.stop(started.id)
    recordings.observe(exchange({}))
    const document = recordings.document(started.id)
    const text = JSON.stringify(document)
    for (const canary of [KEY, SECRET, token, ADMIN, 'pw@']) expect(text).not.toContain(canary)
    expect(document.upstreamUrl).toBe('https://upstream.test/')
    expect(document.exchanges.map((e) => e.seq)).toEqual([1, 2])
    const [first, second] = document.exchanges
    expect(first?.request.headers['x-svc-plugin-key']).toMatch(/^fp\.pluginKey\.[0-9a-f]{64}$/)
    expect(first?.request.headers['x-svc-app-id']).toBe('app_1')
    expect(first?.request.headers).not.toHaveProperty('host')
    expect(first?.request.headers).not.toHaveProperty('connection')
    expect(first?.response.headers).not.toHaveProperty('content-encoding')
    expect(first?.request.body).toEqual({
      kind: 'json',
      json: { license_key: 'AAAAA-BBBBB', instance_id: 'inst-1', nonce: 'n-1' }
    })
    expect(first?.licenseTokens?.[0]?.claims).toMatchObject({ nonce: 'n-1', aud: 'app_1', sub: 'lic_1' })
    // One secret, one fingerprint: the token in the answer, the query and the header match.
    const print = first?.licenseTokens?.[0]?.fingerprint as string
    expect(second?.request.query).toContain(print)
    expect(second?.request.headers.authorization).toBe(`Bearer ${print}`)
  })

  it('fingerprints secret-named fields of form bodies and of JSON sent as text, whatever their values look like', () => {
    const recordings = service()
    const started = recordings.start({ name: 'bodies', upstreamUrl: null })
    const opaque = 'opaque-secret-value-42'
    for (const [contentType, text] of [
      ['application/x-www-form-urlencoded', `plugin_secret=${opaque}&license_key=AAAAA-BBBBB`],
      ['text/plain', JSON.stringify({ token: opaque, license_key: 'AAAAA-BBBBB' })]
    ]) {
      recordings.observe(
        exchange({
          requestHeaders: { 'content-type': contentType as string },
          requestBody: Buffer.from(text as string)
        })
      )
    }
    recordings.stop(started.id)
    const text = JSON.stringify(recordings.document(started.id))
    expect(text).not.toContain(opaque)
    expect(text).toContain('AAAAA-BBBBB')
  })

  it('refuses a document that still holds a secret, naming where and not what', () => {
    expect(firstSecretIn({ a: [{ b: `x ${KEY} y` }] }, [])).toBe('$.a[0].b')
    expect(firstSecretIn({ a: 'has admin-token-canary-0001 in it' }, [ADMIN])).toBe('$.a')
    expect(firstSecretIn({ a: 'fp.pluginKey.' + 'a'.repeat(64) }, [ADMIN])).toBeNull()
  })

  it('replays in order, the last repeating; strict names the closest request and the first differing field', async () => {
    const recordings = service()
    const { id } = recordings.start({ upstreamUrl: null })
    const request = { license_key: 'AAAAA-BBBBB', instance_id: 'inst-1' }
    recordings.observe(exchange({ body: request, answer: { ok: true, valid: true, code: 'VALID', n: 1 } }))
    recordings.observe(exchange({ body: request, answer: { ok: true, valid: false, code: 'NOT_ACTIVATED', n: 2 } }))
    const document: RecordingDocument = recordings.document(id)
    const replay = strictReplay(recordings, document)
    const live = (body: unknown, key = KEY) => ({
      method: 'POST',
      path: '/api/license/v1/validate',
      rawQuery: '',
      requestHeaders: {
        'content-type': 'application/json',
        'x-svc-app-id': 'app_1',
        'x-svc-plugin-key': key,
        'x-svc-plugin-secret': SECRET
      },
      requestBody: Buffer.from(JSON.stringify(body))
    })
    const answers = []
    for (let i = 0; i < 3; i++) answers.push(JSON.parse((await replay.answer(live(request)))!.body.toString()).n)
    expect(answers).toEqual([1, 2, 2])
    await expect(replay.answer(live({ ...request, instance_id: 'inst-2' }))).rejects.toMatchObject({
      code: 'NO_RECORDED_MATCH',
      details: { differs: 'body.instance_id', closest: { path: '/api/license/v1/validate' } }
    })
    await expect(replay.answer(live(request, 'pk_AnotherKey00000000000001'))).rejects.toMatchObject({
      details: { differs: 'header.x-svc-plugin-key' }
    })
  })

  it('replays a request that repeats its own credential in its path and body, whatever its shape', async () => {
    // A real platform's key need not look like pk_...: recording hid it wherever the request
    // repeated it, by the header it came in; replay must hide it the same way to match.
    const key = 'plain-key-without-a-shape-7'
    const recordings = service()
    const { id } = recordings.start({ upstreamUrl: null })
    const request = {
      method: 'POST',
      path: `/api/keys/${key}/check`,
      rawQuery: `echo=${key}`,
      requestHeaders: { 'content-type': 'application/json', 'x-svc-app-id': 'app_1', 'x-svc-plugin-key': key },
      requestBody: Buffer.from(JSON.stringify({ note: `sent ${key}` }))
    }
    recordings.observe(exchange({ ...request, answer: { ok: true, n: 1 } }))
    const document: RecordingDocument = recordings.document(id)
    expect(JSON.stringify(document)).not.toContain(key)
    const replay = strictReplay(recordings, document)
    const answer = await replay.answer(request)
    expect(JSON.parse(String(answer?.body)).n).toBe(1)
    // Another key in the same places is another request.
    const other = 'plain-key-without-a-shape-8'
    await expect(
      replay.answer({
        ...request,
        path: `/api/keys/${other}/check`,
        rawQuery: `echo=${other}`,
        requestHeaders: { ...request.requestHeaders, 'x-svc-plugin-key': other },
        requestBody: Buffer.from(JSON.stringify({ note: `sent ${other}` }))
      })
    ).rejects.toMatchObject({ code: 'NO_RECORDED_MATCH', details: { differs: 'path' } })
  })

  it('makes a scenario with the credential a recording saw, whatever its shape, and refuses another', () => {
    // A real platform's key and secret need not look like pk_... and sk_...: the user's values are
    // matched as their headers were fingerprinted.
    const [key, secret] = ['plain-key-without-a-shape-7', 'plain-secret-without-a-shape-7']
    const recordings = service()
    const { id } = recordings.start({ upstreamUrl: null })
    recordings.observe(
      exchange({
        requestHeaders: { 'content-type': 'application/json', 'x-svc-plugin-key': key, 'x-svc-plugin-secret': secret },
        body: { license_key: 'AAAAA-BBBBB', instance_id: 'inst-1' },
        answer: { ok: true, valid: true, code: 'VALID' }
      })
    )
    const document = recordings.document(id)
    expect(JSON.stringify(document)).not.toContain(key)
    const made = (pluginKey: string, pluginSecret: string) => () =>
      scenarioFromRecording(document, {
        fingerprints: recordings.fingerprinterFor(document.fingerprints.salt),
        pluginKey,
        pluginSecret
      })
    expect(made(key, secret)).not.toThrow()
    expect(made(key, 'plain-secret-without-a-shape-8')).toThrow(/pluginSecret given is not one/)
    expect(made('plain-key-without-a-shape-8', secret)).toThrow(/pluginKey given is not one/)
  })

  it('ships the JSON Schema it writes by (resources/recording.schema.json), and its documents meet it', async () => {
    const shipped = readFileSync(new URL('../../resources/recording.schema.json', import.meta.url), 'utf8')
    expect(shipped).toBe(recordingJsonSchema())
    const recordings = service()
    const { id } = recordings.start({ upstreamUrl: null })
    recordings.observe(exchange({ body: { license_key: 'K' }, answer: { ok: true, token: await licenseToken('n') } }))
    const validate = new Ajv2020({ strict: false }).compile(JSON.parse(shipped))
    expect(validate(recordings.document(id)), JSON.stringify(validate.errors)).toBe(true)
    expect(validate({ ...recordings.document(id), format: 'other' })).toBe(false)
  })
})
