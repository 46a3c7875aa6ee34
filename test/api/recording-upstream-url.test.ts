import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { startEmulator } from '../support/emulator'
import type { TestEmulator } from '../support/emulator'
import { pluginClient, productWithCredential } from '../support/plugin-client'
import type { PluginCredential } from '../support/plugin-client'

// docs/upstream.md "Record, replay, reproduce": a recording names the upstream it was made against,
// also when it was started before forwarding was switched on; an exchange forwarded elsewhere (the
// upstream changed while it ran) names its own.
describe("a recording's upstreamUrl", () => {
  let platform: TestEmulator
  let otherPlatform: TestEmulator
  let proxy: TestEmulator
  let credential: PluginCredential

  beforeAll(async () => {
    platform = await startEmulator()
    credential = await productWithCredential(platform, 'Named Synth')
    otherPlatform = await startEmulator()
    proxy = await startEmulator()
  })
  afterAll(async () => {
    await proxy.close()
    await otherPlatform.close()
    await platform.close()
  })

  it('started with forwarding off, it names the upstream its first exchange went to', async () => {
    const started = await proxy.control('POST', '/recordings', { name: 'started before forwarding' })
    expect(started.body.recording.upstreamUrl).toBeNull()
    const id = started.body.recording.id as string

    expect((await proxy.control('PUT', '/upstream', { url: platform.baseUrl })).status).toBe(200)
    const answer = await pluginClient(proxy, credential).validate('K-NAMED', 'studio-mac')
    expect(answer.headers.get('x-emulator-source')).toBe('upstream')
    await expect.poll(async () => (await proxy.control('GET', '/recordings')).body.recordings[0].exchanges).toBe(1)
    await proxy.control('POST', `/recordings/${id}/stop`)

    const document = (await proxy.control('GET', `/recordings/${id}`)).body.recording
    expect(document.upstreamUrl).toBe(new URL(platform.baseUrl).toString())
    expect(document.exchanges).toHaveLength(1)
  })

  it('an exchange forwarded to another upstream than the recording names, after a switch while it ran, names its own', async () => {
    expect((await proxy.control('PUT', '/upstream', { url: platform.baseUrl })).status).toBe(200)
    const started = await proxy.control('POST', '/recordings', { name: 'switched while running' })
    const id = started.body.recording.id as string
    const plugin = pluginClient(proxy, credential)
    await plugin.validate('K-FIRST', 'studio-mac')
    expect((await proxy.control('PUT', '/upstream', { url: otherPlatform.baseUrl })).status).toBe(200)
    // The other platform does not know the credential: its answer is recorded all the same.
    const second = await plugin.validate('K-SECOND', 'studio-mac')
    expect(second.headers.get('x-emulator-source')).toBe('upstream')
    await expect.poll(async () => (await proxy.control('GET', '/recordings')).body.recordings[0].exchanges).toBe(2)
    await proxy.control('POST', `/recordings/${id}/stop`)

    const document = (await proxy.control('GET', `/recordings/${id}`)).body.recording
    expect(document.upstreamUrl).toBe(new URL(platform.baseUrl).toString())
    expect(document.exchanges[0]).not.toHaveProperty('upstreamUrl')
    expect(document.exchanges[1].upstreamUrl).toBe(new URL(otherPlatform.baseUrl).toString())
    // Such a document is still one a replay takes.
    expect((await proxy.control('PUT', '/replay', { recording: document })).status).toBe(200)
    await proxy.control('PUT', '/replay', { recording: null })
    await proxy.control('PUT', '/upstream', { url: null })
  })
})
