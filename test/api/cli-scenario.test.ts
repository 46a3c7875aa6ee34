import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'

import { PRESET_CREDENTIAL, PRESETS } from '../../src/core/scenarios/presets'
import { killAllCli, spawnCli, startServeCli } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'

// `serve --scenario FILE` and `export-state`: scenario documents through the real command line.

const dir = makeTempDir('cli-scenario')
afterEach(async () => killAllCli())
afterAll(() => dir.remove())

const fullLibrary = PRESETS.find((p) => p.name === 'full-library')!

describe('serve --scenario', () => {
  it('loads the document at start, and export-state writes the same state to a file atomically', async () => {
    const scenario = join(dir.path, 'full-library.json')
    writeFileSync(scenario, JSON.stringify(fullLibrary.build(new Date())))
    const db = join(dir.path, 'scenario.db')
    const serving = await startServeCli([
      '--port',
      '0',
      '--db',
      db,
      '--admin-token',
      'scenario-token',
      '--scenario',
      scenario
    ])
    const verify = await fetch(`${serving.baseUrl}/api/plugin-connections/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(PRESET_CREDENTIAL)
    })
    expect(verify.status).toBe(200)
    const served = (await (
      await fetch(`${serving.baseUrl}/_emulator/state`, { headers: { 'x-emulator-token': 'scenario-token' } })
    ).json()) as {
      state: Record<string, unknown>
    }
    // The clock, the fault rules and the settings live in the running server, not in the file.
    const { clock, faults, settings, ...stored } = served.state
    expect({ clock, faults }).toEqual({ clock: { offsetS: 0 }, faults: [] })
    expect(settings).toMatchObject({ headerPrefix: 'svc' })

    const out = join(dir.path, 'exported.json')
    const exported = spawnCli(['export-state', '--db', db, '--out', out])
    expect((await exported.exited).code).toBe(0)
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual(stored)
    expect(readdirSync(dir.path).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('refuses to start on an invalid scenario, naming the path, and exits 4', async () => {
    const scenario = join(dir.path, 'broken.json')
    const document = fullLibrary.build(new Date())
    ;(document.licenses as Record<string, unknown>[])[2]!.kind = 'lifetime'
    writeFileSync(scenario, JSON.stringify(document))
    const cli = spawnCli(['serve', '--port', '0', '--db', join(dir.path, 'broken.db'), '--scenario', scenario])
    const exit = await cli.exited
    expect(exit.code).toBe(4)
    expect(cli.stderr()).toContain('/licenses/2/kind')
  })

  it('loads a scenario saved by a Windows editor: a byte order mark and CRLF line ends', async () => {
    const scenario = join(dir.path, 'notepad.json')
    const text = JSON.stringify(fullLibrary.build(new Date()), null, 2).replaceAll('\n', '\r\n')
    writeFileSync(scenario, `\uFEFF${text}`)
    const serving = await startServeCli(['--port', '0', '--db', ':memory:', '--scenario', scenario])
    const verify = await fetch(`${serving.baseUrl}/api/plugin-connections/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(PRESET_CREDENTIAL)
    })
    expect(verify.status).toBe(200)
  })

  it('loads a control-plane answer saved as it came: GET /_emulator/state, or a recording made into a scenario', async () => {
    for (const member of ['state', 'scenario']) {
      const scenario = join(dir.path, `${member}-answer.json`)
      writeFileSync(scenario, JSON.stringify({ ok: true, [member]: fullLibrary.build(new Date()) }))
      const serving = await startServeCli(['--port', '0', '--db', ':memory:', '--scenario', scenario])
      const verify = await fetch(`${serving.baseUrl}/api/plugin-connections/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(PRESET_CREDENTIAL)
      })
      expect(verify.status).toBe(200)
      await killAllCli()
    }
  })

  it('says so when the scenario file is missing or not JSON, and exits 4', async () => {
    const missing = spawnCli(['serve', '--port', '0', '--db', ':memory:', '--scenario', join(dir.path, 'nope.json')])
    expect((await missing.exited).code).toBe(4)
    expect(missing.stderr()).toContain('cannot read the scenario')
    const garbage = join(dir.path, 'garbage.json')
    writeFileSync(garbage, '{ not json')
    const bad = spawnCli(['serve', '--port', '0', '--db', ':memory:', '--scenario', garbage])
    expect((await bad.exited).code).toBe(4)
    expect(bad.stderr()).toContain('not valid JSON')
  })
})
