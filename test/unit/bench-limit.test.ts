import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// @ts-expect-error -- plain .mjs, no declarations (as every bench/ import here); typed narrowly below.
import * as untypedFixtures from '../../bench/lib/fixtures.mjs'
// @ts-expect-error -- plain .mjs, no declarations (as every bench/ import here); typed narrowly below.
import * as untypedPaths from '../../bench/lib/paths.mjs'
// @ts-expect-error -- plain .mjs, no declarations (as every bench/ import here); typed narrowly below.
import * as untypedThroughput from '../../bench/lib/phase-throughput.mjs'
// @ts-expect-error -- bench/ is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedServerProcess from '../../bench/lib/server-process.mjs'
import { makeTempDir } from '../support/temp-dir'

interface ServerProcess {
  baseUrl: string
  stop: () => Promise<unknown>
}
interface Fixtures {
  plugin: { productId: string; appId: string; pluginKey: string; pluginSecret: string }
  validateLicenses: { key: string; instanceId: string }[]
}
const { startServerProcess } = untypedServerProcess as {
  startServerProcess: (o: { script: string; args: string[]; cwd: string }) => Promise<ServerProcess>
}
const { buildFixtures } = untypedFixtures as { buildFixtures: () => Fixtures }
const { limitScript, projectRoot } = untypedPaths as { limitScript: string; projectRoot: string }
const { inspectorCount } = untypedThroughput as {
  inspectorCount: (
    recorded: number,
    measured: { requests: number; errors: number; single: { requests: number; errors: number } },
    config: { connections: number }
  ) => { recorded: number; answered: number; complete: boolean }
}

// The limit server is the bench's second baseline: it must do a correct validate's work (refuse a
// wrong secret, find the license, sign a token), or the ratios against it would flatter the emulator.
describe('bench limit server', () => {
  const fixtures = buildFixtures()
  let server: ServerProcess
  const dir = makeTempDir('bench-limit')
  const validate = (headers: Record<string, string>, body: unknown) =>
    fetch(`${server.baseUrl}/api/license/v1/validate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body)
    })
  const headersOf = (secret = fixtures.plugin.pluginSecret) => ({
    'x-svc-app-id': fixtures.plugin.appId,
    'x-svc-plugin-key': fixtures.plugin.pluginKey,
    'x-svc-plugin-secret': secret
  })

  beforeAll(async () => {
    const fixturesFile = join(dir.path, 'fixtures.json')
    writeFileSync(
      fixturesFile,
      JSON.stringify({ plugin: fixtures.plugin, validateLicenses: fixtures.validateLicenses })
    )
    server = await startServerProcess({
      script: limitScript,
      args: ['--port', '0', '--db', join(dir.path, 'limit.db'), '--fixtures', fixturesFile],
      cwd: projectRoot
    })
  })
  afterAll(async () => {
    await server?.stop()
    dir.remove()
  })

  it('answers VALID with an EdDSA license token for a license of the bench, as the validate run sends it', async () => {
    const license = fixtures.validateLicenses[7]!
    const response = await validate(headersOf(), { license_key: license.key, instance_id: license.instanceId })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { valid: boolean; code: string; license_token: string }
    expect(body).toMatchObject({ valid: true, code: 'VALID' })
    const [header, payload, signature] = body.license_token.split('.')
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({ alg: 'EdDSA', typ: 'license+jwt' })
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({
      aud: fixtures.plugin.appId,
      instance_id: license.instanceId
    })
    expect(Buffer.from(signature!, 'base64url')).toHaveLength(64)
  })

  it('refuses a wrong secret with 401, and answers NOT_FOUND for an unknown key', async () => {
    expect((await validate(headersOf('sk_wrong'), { license_key: fixtures.validateLicenses[0]!.key })).status).toBe(401)
    const unknown = (await (await validate(headersOf(), { license_key: 'NOPE-00000' })).json()) as {
      valid: boolean
      code: string
    }
    expect(unknown).toMatchObject({ valid: false, code: 'NOT_FOUND' })
  })

  it('holds 10,000 licenses: one the bench never sends is found too', async () => {
    const body = (await (await validate(headersOf(), { license_key: 'LIMIT-09999-BENCH' })).json()) as { code: string }
    expect(body.code).toBe('VALID')
  })
})

describe('bench inspector count', () => {
  const measured = { requests: 1000, errors: 0, single: { requests: 100, errors: 0 } }
  const config = { connections: 50 }

  it('counts the preflight, the warm-up and the measured run as answered', () => {
    expect(inspectorCount(1101, measured, config)).toEqual({ recorded: 1101, answered: 1101, complete: true })
  })

  it('accepts the requests still in flight when the load stopped (one per connection and the warm-up one)', () => {
    expect(inspectorCount(1101 + 51, measured, config).complete).toBe(true)
    expect(inspectorCount(1101 + 52, measured, config).complete).toBe(false)
  })

  it('counts a measured one-connection run after the warm-up, and one more request in flight for it', () => {
    const withWarmup = { ...measured, warmup: { requests: 40, errors: 0 } }
    expect(inspectorCount(1141, withWarmup, config)).toEqual({ recorded: 1141, answered: 1141, complete: true })
    expect(inspectorCount(1141 + 52, withWarmup, config).complete).toBe(true)
    expect(inspectorCount(1141 + 53, withWarmup, config).complete).toBe(false)
    expect(inspectorCount(1140, withWarmup, config).complete).toBe(false)
  })

  it('reports a loss when fewer were recorded than answered', () => {
    expect(inspectorCount(1100, measured, config).complete).toBe(false)
  })
})
