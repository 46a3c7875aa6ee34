import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { killAllCli, startServeCli } from '../support/cli-process'
import type { ServingCli } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'
import { CI, CI_SCENARIO_FILE, emulatorControl } from './ci-scenario'
import { buildClient, missingToolchain } from './toolchain'

// Issue 34 (docs/upstream.md): the reference native client (examples/native-client) runs its flow
// through the emulator's forwarding. A second `serve`, loaded from the CI scenario, is the "real
// platform"; the emulator in front of it holds no data of its own, so every answer the plugin
// accepts (its credential, its license, a token signed with the platform's key) is the platform's.
const missing = missingToolchain()
if (missing) process.stdout.write(`native client upstream suite skipped: ${missing}\n`)

const PLATFORM_TOKEN = 'native-upstream-platform-token-01'
const EMULATOR_TOKEN = 'native-upstream-emulator-token-01'

interface CliRun {
  exit: number | null
  // The driver's one JSON line: its fields vary by outcome, each test reads those it needs.
  line: Record<string, any>
  stdout: string
  stderr: string
}

interface RequestSummary {
  method: string
  path: string
  status: number
  answeredBy: string
  upstreamStatus: number | null
}

// Skipped only where the C++ toolchain or libraries are missing (`missing` names them); .ci/run installs them.
describe.skipIf(missing !== null)('the native C++ client through the forwarding, against a second serve', () => {
  let cli: string
  let platform: ServingCli
  let emulator: ServingCli
  let publicKeyHex: string
  let cacheDir: string
  const dir = makeTempDir('native-upstream')

  const platformControl = emulatorControl(() => platform.baseUrl, PLATFORM_TOKEN)
  const emulatorSide = emulatorControl(() => emulator.baseUrl, EMULATOR_TOKEN)

  /** One run of the driver against the emulator (never the platform directly). */
  function run(args: string[], env: Record<string, string> = {}): CliRun {
    const result = spawnSync(cli, args, {
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '',
        PLE_BASE_URL: emulator.baseUrl,
        PLE_APP_ID: CI.appId,
        PLE_PLUGIN_KEY: CI.pluginKey,
        PLE_PLUGIN_SECRET: CI.pluginSecret,
        PLE_PRODUCT_ID: CI.productId,
        PLE_PUBLIC_KEY_HEX: publicKeyHex,
        PLE_CACHE_DIR: cacheDir,
        PLE_TIMEOUT_MS: '5000',
        ...env
      }
    })
    const stdout = result.stdout ?? ''
    let line: Record<string, any> = {}
    try {
      line = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<string, any>
    } catch {
      // Usage errors print nothing on stdout.
    }
    for (const secret of [CI.pluginSecret, CI.pluginKey]) expect(stdout + result.stderr).not.toContain(secret)
    return { exit: result.status, line, stdout, stderr: result.stderr ?? '' }
  }

  async function requests(control: typeof platformControl.control, query = ''): Promise<RequestSummary[]> {
    return ((await control('GET', `/requests${query}`)) as { requests: RequestSummary[] }).requests
  }

  beforeAll(async () => {
    // The same build as native-client.test.ts (one build folder, held by a lock while it builds).
    cli = buildClient('default')
    platform = await startServeCli([
      '--port',
      '0',
      '--db',
      join(dir.path, 'platform.db'),
      '--scenario',
      CI_SCENARIO_FILE,
      '--admin-token',
      PLATFORM_TOKEN
    ])
    emulator = await startServeCli([
      '--port',
      '0',
      '--db',
      join(dir.path, 'emulator.db'),
      '--admin-token',
      EMULATOR_TOKEN,
      '--upstream',
      platform.baseUrl
    ])
    // The plugin's build holds the platform's public key: the one the forwarding answers is the platform's own.
    const direct = (await (await fetch(`${platform.baseUrl}/api/license/v1/public-key`)).json()) as {
      public_key_hex: string
    }
    const forwarded = await fetch(`${emulator.baseUrl}/api/license/v1/public-key`)
    expect(forwarded.headers.get('x-emulator-source')).toBe('upstream')
    publicKeyHex = ((await forwarded.json()) as { public_key_hex: string }).public_key_hex
    expect(publicKeyHex).toBe(direct.public_key_hex)
    cacheDir = mkdtempSync(join(tmpdir(), 'ple-native-upstream-cache-'))
  }, 300_000)
  afterAll(async () => {
    await killAllCli()
    dir.remove()
  })

  it('the emulator in front holds none of the platform data: off, the same credential is refused', async () => {
    await emulatorSide.control('PUT', '/upstream', { url: null })
    try {
      expect(run(['validate', '--license', CI.perpetual], { PLE_INSTANCE_ID: 'control-box' })).toMatchObject({
        exit: 11,
        line: { outcome: 'auth_failed', code: 'PRODUCT_CREDENTIAL_INVALID', http_status: 401 }
      })
    } finally {
      await emulatorSide.control('PUT', '/upstream', { url: platform.baseUrl })
    }
  })

  it('verifies, activates, validates (the token checked offline with the platform key) and deactivates on the platform', async () => {
    const env = { PLE_INSTANCE_ID: 'studio-mac-through-proxy' }
    expect(run(['verify'], env)).toMatchObject({ exit: 0, line: { outcome: 'ok', code: 'VERIFIED' } })
    expect(run(['activate', '--license', CI.perpetual], env)).toMatchObject({
      exit: 0,
      line: {
        outcome: 'ok',
        code: 'VALID',
        http_status: 201,
        instance_id: 'studio-mac-through-proxy',
        source: 'server'
      }
    })
    const cached = join(cacheDir, `license-${CI.perpetual}.json`)
    expect(existsSync(cached)).toBe(true)
    expect(run(['validate', '--license', CI.perpetual], env)).toMatchObject({
      exit: 0,
      line: { outcome: 'ok', code: 'VALID', source: 'server' }
    })

    // The activation is the platform's: its license lists the machine, live.
    const licenses = (await platformControl.control('GET', '/licenses')) as { licenses: { id: string; key: string }[] }
    const license = licenses.licenses.find((entry) => entry.key === CI.perpetual)
    expect(license).toBeDefined()
    const detail = (await platformControl.control('GET', `/licenses/${license!.id}`)) as {
      activations: { instanceId: string; deactivatedAt: string | null }[]
    }
    expect(detail.activations).toContainEqual(
      expect.objectContaining({ instanceId: 'studio-mac-through-proxy', deactivatedAt: null })
    )

    expect(run(['deactivate', '--license', CI.perpetual], env)).toMatchObject({
      exit: 0,
      line: { outcome: 'ok', code: 'DEACTIVATED' }
    })
    expect(existsSync(cached)).toBe(false)
    const after = (await platformControl.control('GET', `/licenses/${license!.id}`)) as {
      activations: { instanceId: string; deactivatedAt: string | null }[]
    }
    expect(after.activations.find((entry) => entry.instanceId === 'studio-mac-through-proxy')?.deactivatedAt).not.toBe(
      null
    )

    // The emulator's inspector shows the flow as answered by the upstream, with the platform's statuses.
    const seen = await requests(emulatorSide.control, '?answeredBy=upstream')
    const flow = seen.map((entry) => `${entry.method} ${entry.path} ${entry.upstreamStatus}`)
    expect(flow).toEqual(
      expect.arrayContaining([
        'POST /api/plugin-connections/verify 200',
        'POST /api/license/v1/activate 201',
        'POST /api/license/v1/validate 200',
        'POST /api/license/v1/deactivate 200'
      ])
    )
    expect(seen.every((entry) => entry.answeredBy === 'upstream')).toBe(true)
  })

  it("the platform's refusals reach the plugin as the platform made them (a wrong secret, too many activations)", () => {
    expect(
      run(['validate', '--license', CI.perpetual], { PLE_PLUGIN_SECRET: 'sk_NotTheSecret000000000000000000001' })
    ).toMatchObject({
      exit: 11,
      line: { outcome: 'auth_failed', code: 'PRODUCT_CREDENTIAL_INVALID', http_status: 401 }
    })
    expect(run(['activate', '--license', CI.limitReached], { PLE_INSTANCE_ID: 'one-machine-too-many' })).toMatchObject({
      exit: 10,
      line: { outcome: 'license_refused', code: 'TOO_MANY_ACTIVATIONS', http_status: 409 }
    })
  })

  it('a fault after the upstream: the platform activates, the plugin never hears, and its next start recovers', async () => {
    const env = { PLE_INSTANCE_ID: 'unlucky-box' }
    const activationsOnPlatform = async () =>
      (await requests(platformControl.control)).filter(
        (entry) => entry.path === '/api/license/v1/activate' && entry.status === 201
      ).length
    const before = await activationsOnPlatform()
    await emulatorSide.faults([{ route: '/api/license/v1/activate', kind: 'offline', stage: 'after' }])
    try {
      expect(run(['activate', '--license', CI.perpetual], env)).toMatchObject({
        exit: 12,
        line: { outcome: 'offline' }
      })
    } finally {
      await emulatorSide.faults([])
    }
    // The platform did activate: its own inspector counts one more.
    expect(await activationsOnPlatform()).toBe(before + 1)
    // The machine is already the platform's: activating again is answered as the same machine, and validates.
    expect(run(['activate', '--license', CI.perpetual], env)).toMatchObject({ exit: 0, line: { code: 'VALID' } })
    expect(run(['validate', '--license', CI.perpetual], env)).toMatchObject({ exit: 0, line: { code: 'VALID' } })
    expect(run(['deactivate', '--license', CI.perpetual], env).exit).toBe(0)
  })

  it('with the platform unreachable, the plugin sees 502 as offline and its cached token carries it', async () => {
    const env = { PLE_INSTANCE_ID: 'cached-box' }
    expect(run(['activate', '--license', CI.perpetual], env).exit).toBe(0)
    // Nothing listens on port 9 of loopback: the emulator answers 502 UPSTREAM_UNREACHABLE in the platform's place.
    await emulatorSide.control('PUT', '/upstream', { url: 'http://127.0.0.1:9' })
    try {
      expect(run(['validate', '--license', CI.perpetual], env)).toMatchObject({
        exit: 0,
        line: { outcome: 'ok', source: 'cache', http_status: 502 }
      })
    } finally {
      await emulatorSide.control('PUT', '/upstream', { url: platform.baseUrl })
    }
    expect(run(['deactivate', '--license', CI.perpetual], env).exit).toBe(0)
  })
})
