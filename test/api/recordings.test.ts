import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createLocalJWKSet, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { killAllCli, startServeCli } from '../support/cli-process'
import { addFile, createCustomer, getLibrary, libraryTokenOf, localPath, purchase } from '../support/commerce'
import { databaseFileBytes } from '../support/database'
import { startEmulator, useEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import { makeTempDir } from '../support/temp-dir'

/** One call of the recorded flow, made again the same way for the replay. */
interface FlowCall {
  label: string
  run: (emu: TestEmulator) => Promise<{ status: number; text: string }>
}

const SECRET_SHAPE = /(?:pk|sk|clm)_[A-Za-z0-9]{16,}|eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{8,}/

// docs/upstream.md "Record, replay, reproduce": a plugin flow recorded through the proxy in front of a
// second emulator (the "real platform"), that platform stopped, then replayed and made a scenario.
describe('recording a plugin flow, replaying it offline and making a scenario of it', () => {
  let platform: TestEmulator
  const proxy = useEmulator()
  let credential: Awaited<ReturnType<typeof productWithCredential>>
  let licenseKey: string
  let libraryToken: string
  const flow: FlowCall[] = []
  const recorded: { label: string; status: number; text: string }[] = []
  const canaries: string[] = []
  let recordingId: string
  let document: Record<string, any>

  beforeAll(async () => {
    platform = await startEmulator()
    await proxy.control('PUT', '/upstream', { url: platform.baseUrl })
    credential = await productWithCredential(platform, 'Recorded Synth')
    const customerId = (await createCustomer(platform)).id
    licenseKey = (await purchase(platform, customerId, credential.productId, { maxActivations: 3 })).license.key
    await addFile(platform, credential.productId, { sizeBytes: 300_000 })
    libraryToken = await libraryTokenOf(platform, customerId)
    canaries.push(credential.pluginKey, credential.pluginSecret, libraryToken, proxy.adminToken, platform.adminToken)

    const plugin = (emu: TestEmulator) => pluginClient(emu, credential)
    let downloadPath = ''
    flow.push(
      {
        label: 'verify',
        run: (emu) =>
          emu.request('POST', '/api/plugin-connections/verify', {
            body: {
              productId: credential.productId,
              appId: credential.appId,
              pluginKey: credential.pluginKey,
              pluginSecret: credential.pluginSecret
            }
          })
      },
      { label: 'activate m1', run: (emu) => plugin(emu).activate(licenseKey, 'machine-1') },
      { label: 'activate m2', run: (emu) => plugin(emu).activate(licenseKey, 'machine-2') },
      { label: 'validate m1', run: (emu) => plugin(emu).validate(licenseKey, 'machine-1', 'nonce-1') },
      { label: 'validate m2', run: (emu) => plugin(emu).validate(licenseKey, 'machine-2', 'nonce-2') },
      { label: 'deactivate m1', run: (emu) => plugin(emu).deactivate(licenseKey, 'machine-1') },
      { label: 'validate m1 again', run: (emu) => plugin(emu).validate(licenseKey, 'machine-1', 'nonce-3') },
      { label: 'validate m1 again', run: (emu) => plugin(emu).validate(licenseKey, 'machine-1', 'nonce-3') },
      {
        label: 'library',
        run: async (emu) => {
          const library = await getLibrary(emu, libraryToken)
          const url = library.body?.products?.[0]?.downloads?.[0]?.url as string | undefined
          if (url && downloadPath === '') downloadPath = localPath(url)
          return library
        }
      },
      {
        label: 'download',
        run: async (emu) => {
          const answer = await fetch(emu.baseUrl + downloadPath)
          const bytes = Buffer.from(await answer.arrayBuffer())
          return { status: answer.status, text: `${bytes.length} bytes` }
        }
      }
    )

    const started = await proxy.control('POST', '/recordings', { name: 'customer says NOT_ACTIVATED' })
    expect(started.status).toBe(201)
    recordingId = started.body.recording.id
    for (const call of flow) {
      const answer = await call.run(proxy)
      recorded.push({ label: call.label, status: answer.status, text: answer.text })
      for (const match of answer.text.matchAll(new RegExp(SECRET_SHAPE, 'g'))) canaries.push(match[0])
    }
    // Exchanges are handed on once the client has the whole answer: wait until all arrived.
    for (let i = 0; i < 100; i++) {
      const list = await proxy.control('GET', '/recordings')
      if (list.body.recordings[0].exchanges >= flow.length) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const stopped = await proxy.control('POST', `/recordings/${recordingId}/stop`)
    expect(stopped.body.recording.stoppedAt).not.toBeNull()
    document = (await proxy.control('GET', `/recordings/${recordingId}`)).body.recording
    // The real platform goes away: what follows is offline.
    await platform.close()
    await proxy.control('PUT', '/upstream', { url: null })
  }, 120_000)

  afterAll(async () => {
    await proxy.control('PUT', '/replay', { recording: null })
  })

  it('recorded every exchange in order, with the flow answered as the platform answered it', () => {
    expect(recorded.map((call) => call.status)).toEqual([200, 201, 201, 200, 200, 200, 200, 200, 200, 200])
    expect(document.format).toBe('plugin-license-emulator/recording')
    expect(document.version).toBe(1)
    expect(document.exchanges.map((exchange: any) => exchange.seq)).toEqual(flow.map((_, index) => index + 1))
    expect(document.exchanges.map((exchange: any) => exchange.request.path)).toContain('/api/license/v1/deactivate')
    // The download is kept as its size and digest only.
    const download = document.exchanges[flow.length - 1]
    expect(download.response.body).toMatchObject({ kind: 'digest', bytes: 300_000 })
    expect(download.response.body.sha256).toMatch(/^[0-9a-f]{64}$/)
    // License keys and instance ids are kept: they are what QA replays.
    expect(JSON.stringify(document)).toContain(licenseKey)
    expect(JSON.stringify(document)).toContain('machine-2')
  })

  it('holds no secret anywhere: the recording, the database and its WAL, the log, the export', async () => {
    expect(canaries.length).toBeGreaterThan(8)
    const exported = (await proxy.control('GET', '/state?includeRequests=1')).text
    const places = {
      recording: JSON.stringify(document),
      database: databaseFileBytes(proxy.databasePath).toString('latin1'),
      log: proxy.logOutput(),
      export: exported
    }
    for (const [place, text] of Object.entries(places)) {
      for (const canary of canaries) expect(text.includes(canary), `${place} holds a secret`).toBe(false)
    }
    expect(SECRET_SHAPE.test(places.recording)).toBe(false)
  })

  it('replays the same requests in the same order with byte-identical bodies, the last answer repeating', async () => {
    const put = await proxy.control('PUT', '/replay', { recording: document })
    expect(put.status).toBe(200)
    expect(put.body.replay).toMatchObject({ active: true, strict: false, resign: false })
    expect(put.body.replay.recording.exchanges).toBe(flow.length)
    for (const [index, call] of flow.entries()) {
      const answer = await call.run(proxy)
      const was = recorded[index] as { status: number; text: string }
      const recordedBody = document.exchanges[index].response.body
      expect(answer.status, call.label).toBe(was.status)
      if (recordedBody.kind === 'json') {
        expect(answer.text, call.label).toBe(JSON.stringify(recordedBody.json))
        // An answer without secrets is the very bytes the platform sent.
        if (!SECRET_SHAPE.test(was.text)) expect(answer.text, call.label).toBe(was.text)
      } else {
        expect(answer.text, call.label).toBe(was.text)
      }
    }
    // The sequence's last answer repeats.
    const again = await flow[6]?.run(proxy)
    expect(again?.text).toBe(JSON.stringify(document.exchanges[7].response.body.json))
    const headers = await pluginClient(proxy, credential).validate(licenseKey, 'machine-2', 'nonce-2')
    expect(headers.headers.get('x-emulator-source')).toBe('recording')
    // The inspector shows who answered (the answer's headers, as recorded for it).
    const latest = (await proxy.control('GET', '/requests?limit=1')).body.requests[0]
    const detail = await proxy.control('GET', `/requests/${latest.id}`)
    expect(detail.body.entry.answeredBy).toBe('recording')
    expect(JSON.stringify(detail.body)).toContain('"x-emulator-replay":"seq=')
  })

  it('answers an unknown request in strict mode with 404 NO_RECORDED_MATCH naming the closest one', async () => {
    await proxy.control('PUT', '/replay', { recording: document, strict: true })
    const answer = await fetch(`${proxy.baseUrl}/api/license/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...pluginClient(proxy, credential).headers },
      body: JSON.stringify({ license_key: licenseKey, instance_id: 'machine-9', nonce: 'nonce-1' })
    })
    expect(answer.status).toBe(404)
    const body = (await answer.json()) as Record<string, any>
    expect(body).toMatchObject({
      ok: false,
      error: 'NO_RECORDED_MATCH',
      differs: 'body.instance_id',
      closest: { method: 'POST', path: '/api/license/v1/validate' }
    })
    expect(body.message).toContain('/api/license/v1/validate')
    for (const canary of canaries) expect(JSON.stringify(body)).not.toContain(canary)
  })

  it("re-signs recorded license tokens with the emulator's key when asked, and says so", async () => {
    const put = await proxy.control('PUT', '/replay', { recording: document, resign: true })
    expect(put.body.replay.resign).toBe(true)
    // A plugin sends a fresh nonce on every call: the recorded call is matched without it, and the
    // re-signed token echoes the live one, as the platform's would.
    const answer = await pluginClient(proxy, credential).validate(licenseKey, 'machine-2', 'nonce-live')
    expect(answer.headers.get('x-emulator-replay')).toContain('resigned=1')
    const jwks = (await proxy.request('GET', '/.well-known/jwks.json')).body
    const { payload } = await jwtVerify(String(answer.body.license_token), createLocalJWKSet(jwks as any), {
      audience: credential.appId
    })
    expect(payload.nonce).toBe('nonce-live')
  })

  it('refuses a document holding a secret, and a document that is not a recording', async () => {
    const leaky = structuredClone(document)
    leaky.exchanges[0].request.headers['x-note'] = `pasted ${credential.pluginSecret}`
    const refused = await proxy.control('PUT', '/replay', { recording: leaky })
    expect(refused.status).toBe(400)
    expect(refused.text).not.toContain(credential.pluginSecret)
    const wrong = await proxy.control('PUT', '/replay', { recording: { format: 'something else' } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.error).toBe('VALIDATION_ERROR')
  })

  it('answers a hand-edited document in the envelope: an unsendable header is dropped, a huge digest streams', async () => {
    const edited = structuredClone(document)
    const first = edited.exchanges[0]
    first.response.headers['bad name'] = 'x'
    first.response.headers['x-broken'] = 'line\nbreak'
    first.response.body = { kind: 'digest', bytes: 3_000_000, sha256: null }
    expect((await proxy.control('PUT', '/replay', { recording: edited })).status).toBe(200)
    const answer = await flow[0]!.run(proxy)
    expect(answer.status).toBe(first.response.status)
    expect(answer.text.length).toBe(3_000_000)
    await proxy.control('PUT', '/replay', { recording: null })
  })

  it('refuses a recording name with the shape of a secret (the name ships with the document)', async () => {
    const refused = await proxy.control('POST', '/recordings', { name: `key ${credential.pluginKey}` })
    expect(refused.status).toBe(400)
    expect(refused.body.error).toBe('VALIDATION_ERROR')
    expect(refused.text).not.toContain(credential.pluginKey)
  })

  it('makes a scenario that, imported into a fresh emulator, answers the recorded licensing codes', async () => {
    await proxy.control('PUT', '/replay', { recording: null })
    const wrongKey = await proxy.control('POST', `/recordings/${recordingId}/scenario`, {
      pluginKey: 'pk_NotTheRecordedKey0000001',
      pluginSecret: credential.pluginSecret
    })
    expect(wrongKey.status).toBe(400)
    const made = await proxy.control('POST', `/recordings/${recordingId}/scenario`, {
      pluginKey: credential.pluginKey,
      pluginSecret: credential.pluginSecret
    })
    expect(made.status).toBe(200)
    expect(made.body.notes.map((note: any) => note.field)).toContain('developers')
    const scenarioText = JSON.stringify(made.body.scenario)
    for (const canary of canaries) expect(scenarioText).not.toContain(canary)

    const fresh = await startEmulator()
    try {
      // The answer as it came (a file saved with `curl -o` is this): the import takes its `scenario`.
      const imported = await fresh.control('PUT', '/state', made.body)
      expect(imported.status, imported.text).toBe(200)
      const licensing = flow
        .map((call, index) => ({ call, index }))
        .filter(({ index }) => String(document.exchanges[index].request.path).startsWith('/api/'))
        .filter(({ index }) => !String(document.exchanges[index].request.path).startsWith('/api/downloads'))
        .filter(({ call }) => call.label !== 'library')
      for (const { call, index } of licensing) {
        const answer = await call.run(fresh)
        const was = JSON.parse((recorded[index] as { text: string }).text)
        const now = JSON.parse(answer.text)
        expect({ label: call.label, status: answer.status, code: now.code ?? now.error, valid: now.valid }).toEqual({
          label: call.label,
          status: (recorded[index] as { status: number }).status,
          code: was.code ?? was.error,
          valid: was.valid
        })
      }
    } finally {
      await fresh.close()
    }
  })

  it('replays a recording file from the start with serve --replay FILE --replay-strict', async () => {
    const dir = makeTempDir('replay-cli')
    try {
      const file = join(dir.path, 'bug.recording.json')
      writeFileSync(file, JSON.stringify(document))
      const served = await startServeCli(['--port', '0', '--db', ':memory:', '--replay', file, '--replay-strict'])
      const headers = { 'content-type': 'application/json', ...pluginClient(proxy, credential).headers }
      const call = (instanceId: string, nonce: string) =>
        fetch(`${served.baseUrl}/api/license/v1/validate`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ license_key: licenseKey, instance_id: instanceId, nonce })
        })
      const matched = await call('machine-2', 'nonce-2')
      expect(matched.status).toBe(200)
      expect(matched.headers.get('x-emulator-source')).toBe('recording')
      expect(await matched.text()).toBe(JSON.stringify(document.exchanges[4].response.body.json))
      // Another nonce is the same call (a nonce is fresh every time); another machine is not.
      expect((await call('machine-2', 'nonce-other')).status).toBe(200)
      const unknown = await call('machine-7', 'nonce-2')
      expect(unknown.status).toBe(404)
      expect(((await unknown.json()) as Record<string, unknown>).differs).toBe('body.instance_id')
    } finally {
      await killAllCli()
      dir.remove()
    }
  })

  it('serve --replay takes GET /_emulator/recordings/:id saved as it answers (curl -o), and --replay-resign re-signs', async () => {
    const dir = makeTempDir('replay-answer')
    try {
      const file = join(dir.path, 'answer.json')
      writeFileSync(file, JSON.stringify((await proxy.control('GET', `/recordings/${recordingId}`)).body))
      const served = await startServeCli(['--port', '0', '--db', ':memory:', '--replay', file, '--replay-resign'])
      const matched = await fetch(`${served.baseUrl}/api/license/v1/validate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...pluginClient(proxy, credential).headers },
        body: JSON.stringify({ license_key: licenseKey, instance_id: 'machine-2', nonce: 'nonce-3' })
      })
      expect(matched.status).toBe(200)
      expect(matched.headers.get('x-emulator-source')).toBe('recording')
      expect(matched.headers.get('x-emulator-replay')).toMatch(/; resigned=1$/)
    } finally {
      await killAllCli()
      dir.remove()
    }
  })

  it('lists and deletes recordings; an unknown one is 404 RECORDING_NOT_FOUND', async () => {
    const list = await proxy.control('GET', '/recordings')
    expect(list.body.recordings.map((item: any) => item.id)).toContain(recordingId)
    const gone = await proxy.control('DELETE', `/recordings/${recordingId}`)
    expect(gone.body).toEqual({ ok: true, removed: true })
    const missing = await proxy.control('GET', `/recordings/${recordingId}`)
    expect(missing.status).toBe(404)
    expect(missing.body.error).toBe('RECORDING_NOT_FOUND')
  })
})
