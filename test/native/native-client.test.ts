import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { toCppHeader, toEnv } from '../../src/shared/plugin-config/runtime-config'
import type { RuntimeConfig } from '../../src/shared/plugin-config/runtime-config'
import { killAllCli, startServeCli } from '../support/cli-process'
import type { ServingCli } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'
import { CI, CI_SCENARIO_FILE, emulatorControl } from './ci-scenario'
import { buildClient, missingToolchain } from './toolchain'

// The reference native client (examples/native-client), built with CMake and driven as a plugin
// drives it, against a real `serve` loaded from the CI scenario (fixed, documented values).
const missing = missingToolchain()
if (missing) process.stdout.write(`native client suite skipped: ${missing}\n`)

const ADMIN_TOKEN = 'native-suite-admin-token-0001'
const DAY = 86_400

interface CliRun {
  exit: number | null
  line: Record<string, any>
  stdout: string
  stderr: string
}

// Skipped only where the C++ toolchain or libraries are missing (`missing` names them); .ci/run installs them.
describe.skipIf(missing !== null)('the native C++ client against a real serve', () => {
  let cli: string
  let serve: ServingCli
  let publicKeyHex: string
  let cacheDir: string
  const dir = makeTempDir('native')

  const { control, faults, clock } = emulatorControl(() => serve.baseUrl, ADMIN_TOKEN)

  /** One run of the driver; env overrides the suite's configuration (undefined removes a variable). */
  function run(args: string[], env: Record<string, string | undefined> = {}, binary = cli): CliRun {
    const base: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      PLE_BASE_URL: serve.baseUrl,
      PLE_APP_ID: CI.appId,
      PLE_PLUGIN_KEY: CI.pluginKey,
      PLE_PLUGIN_SECRET: CI.pluginSecret,
      PLE_PRODUCT_ID: CI.productId,
      PLE_PUBLIC_KEY_HEX: publicKeyHex,
      PLE_CACHE_DIR: cacheDir,
      PLE_TIMEOUT_MS: '3000',
      ...env
    }
    const result = spawnSync(binary, args, {
      encoding: 'utf8',
      env: Object.fromEntries<string | undefined>(Object.entries(base).filter(([, v]) => v !== undefined))
    })
    const stdout = result.stdout ?? ''
    const last = stdout.trim().split('\n').at(-1) ?? ''
    let line: Record<string, any> = {}
    try {
      line = JSON.parse(last) as Record<string, any>
    } catch {
      // Usage errors print nothing on stdout.
    }
    // Nothing a plugin holds secret ever reaches the output.
    for (const secret of [CI.pluginSecret, CI.pluginKey]) expect(stdout + result.stderr).not.toContain(secret)
    return { exit: result.status, line, stdout, stderr: result.stderr ?? '' }
  }
  const nowS = () => Math.floor(Date.now() / 1000)
  const freshLicense = async (extra: Record<string, unknown> = {}) =>
    (await control('POST', '/purchases', {
      customerId: CI.customerId,
      productId: CI.productId,
      maxActivations: 3,
      ...extra
    })) as {
      license: { key: string }
      subscription?: { id: string }
    }

  beforeAll(async () => {
    cli = buildClient('default')
    serve = await startServeCli([
      '--port',
      '0',
      '--db',
      join(dir.path, 'emulator.db'),
      '--scenario',
      CI_SCENARIO_FILE,
      '--admin-token',
      ADMIN_TOKEN
    ])
    publicKeyHex = (
      (await (await fetch(`${serve.baseUrl}/api/license/v1/public-key`)).json()) as { public_key_hex: string }
    ).public_key_hex
    cacheDir = mkdtempSync(join(tmpdir(), 'ple-native-cache-'))
  }, 300_000)
  afterAll(() => killAllCli())

  it('happy path: verifies the connection, activates, validates (the token checked offline and cached), deactivates', () => {
    const env = { PLE_INSTANCE_ID: 'studio-mac-happy' }
    expect(run(['verify'], env)).toMatchObject({ exit: 0, line: { outcome: 'ok', code: 'VERIFIED' } })
    const activated = run(['activate', '--license', CI.perpetual], env)
    expect(activated).toMatchObject({
      exit: 0,
      line: { outcome: 'ok', code: 'VALID', http_status: 201, instance_id: 'studio-mac-happy', source: 'server' }
    })
    const cached = join(cacheDir, `license-${CI.perpetual}.json`)
    expect(existsSync(cached)).toBe(true)
    expect(run(['validate', '--license', CI.perpetual], env)).toMatchObject({
      exit: 0,
      line: { outcome: 'ok', code: 'VALID', source: 'server' }
    })
    expect(run(['deactivate', '--license', CI.perpetual], env)).toMatchObject({
      exit: 0,
      line: { outcome: 'ok', code: 'DEACTIVATED' }
    })
    expect(existsSync(cached)).toBe(false)
  })

  it('derives a stable instance id from the machine when none is given', () => {
    const first = run(['validate', '--license', CI.perpetual])
    const second = run(['validate', '--license', CI.perpetual])
    expect(first.line.instance_id).toMatch(/^ple-[0-9a-f]{32}$/)
    expect(second.line.instance_id).toBe(first.line.instance_id)
  })

  it('a wrong secret is refused by licensing (401) and by connection verification, with the reason', () => {
    const wrong = { PLE_PLUGIN_SECRET: 'sk_NotTheSecret000000000000000000001' }
    expect(run(['validate', '--license', CI.perpetual], wrong)).toMatchObject({
      exit: 11,
      line: { outcome: 'auth_failed', code: 'PRODUCT_CREDENTIAL_INVALID', http_status: 401 }
    })
    expect(run(['verify'], wrong)).toMatchObject({
      exit: 11,
      line: { outcome: 'auth_failed', code: 'SECRET_MISMATCH' }
    })
  })

  it('too many activations: the limit-reached license refuses another machine', () => {
    expect(run(['activate', '--license', CI.limitReached], { PLE_INSTANCE_ID: 'one-machine-too-many' })).toMatchObject({
      exit: 10,
      line: { outcome: 'license_refused', code: 'TOO_MANY_ACTIVATIONS', http_status: 409 }
    })
  })

  it('an expired license (the test clock moved past its expiry) validates as EXPIRED', async () => {
    const bought = await freshLicense({ expiresAt: new Date(Date.now() + DAY * 1000).toISOString() })
    const env = { PLE_INSTANCE_ID: 'expiring-box' }
    expect(run(['activate', '--license', bought.license.key], env).exit).toBe(0)
    await clock(2 * DAY)
    try {
      expect(run(['validate', '--license', bought.license.key], env)).toMatchObject({
        exit: 10,
        line: { outcome: 'license_refused', code: 'EXPIRED' }
      })
    } finally {
      await clock(0)
    }
  })

  it('a lapsed subscription (cancelled, its period over on the test clock) validates as EXPIRED', async () => {
    const bought = await freshLicense({ kind: 'subscription' })
    const env = { PLE_INSTANCE_ID: 'subscriber-box' }
    expect(run(['activate', '--license', bought.license.key], env).exit).toBe(0)
    await control('POST', `/subscriptions/${bought.subscription!.id}/cancel`)
    await clock(40 * DAY)
    try {
      expect(run(['validate', '--license', bought.license.key], env)).toMatchObject({
        exit: 10,
        line: { code: 'EXPIRED' }
      })
    } finally {
      await clock(0)
    }
  })

  describe('offline', () => {
    it('a cached token carries the plugin inside the grace period, not past it; without a cache the plugin is offline', async () => {
      const bought = await freshLicense()
      const env = { PLE_INSTANCE_ID: 'travelling-laptop', PLE_OFFLINE_GRACE_S: String(7 * DAY) }
      expect(run(['activate', '--license', bought.license.key], env).exit).toBe(0)
      await faults([{ route: '/api/license/v1/**', kind: 'offline' }])
      try {
        const inside = run(['validate', '--license', bought.license.key, '--now', String(nowS() + 3 * DAY)], env)
        expect(inside).toMatchObject({ exit: 0, line: { outcome: 'ok', code: 'VALID', source: 'cache' } })
        expect(inside.line.offline_until).toBeGreaterThan(nowS() + 6 * DAY)
        const past = run(['validate', '--license', bought.license.key, '--now', String(nowS() + 8 * DAY)], env)
        expect(past).toMatchObject({ exit: 12, line: { outcome: 'offline', source: 'cache' } })
        expect(past.line.message).toMatch(/past the offline grace period/)
        const uncached = run(['validate', '--license', bought.license.key], {
          ...env,
          PLE_CACHE_DIR: mkdtempSync(join(tmpdir(), 'ple-empty-cache-'))
        })
        expect(uncached).toMatchObject({ exit: 12, line: { outcome: 'offline' } })
        expect(uncached.line.message).toMatch(/no cached license token/)
      } finally {
        await faults([])
      }
    })

    it('5xx answers and a refused connection count as offline too', async () => {
      const bought = await freshLicense()
      const env = { PLE_INSTANCE_ID: 'flaky-network' }
      expect(run(['activate', '--license', bought.license.key], env).exit).toBe(0)
      await faults([{ route: '/api/license/v1/validate', kind: 'error', status: 503 }])
      try {
        expect(run(['validate', '--license', bought.license.key], env)).toMatchObject({
          exit: 0,
          line: { source: 'cache', http_status: 503 }
        })
      } finally {
        await faults([])
      }
      // Nothing listens on port 9 of loopback (discard): connection refused.
      expect(
        run(['validate', '--license', bought.license.key], { ...env, PLE_BASE_URL: 'http://127.0.0.1:9' })
      ).toMatchObject({
        exit: 0,
        line: { source: 'cache', http_status: 0 }
      })
      expect(
        run(['validate', '--license', bought.license.key], {
          ...env,
          PLE_BASE_URL: 'http://127.0.0.1:9',
          PLE_CACHE_DIR: ''
        })
      ).toMatchObject({
        exit: 12,
        line: { outcome: 'offline' }
      })
    })
  })

  it('a rate limit is waited out (Retry-After) once; still limited, the plugin says so', async () => {
    await faults([{ method: 'POST', route: '/api/license/v1/validate', kind: 'rate_limit', retryAfterS: 1 }])
    try {
      expect(run(['validate', '--license', CI.perpetual], { PLE_INSTANCE_ID: 'impatient' })).toMatchObject({
        exit: 13,
        line: { outcome: 'rate_limited', code: 'RATE_LIMITED', http_status: 429, waited_s: 1 }
      })
    } finally {
      await faults([])
    }
  })

  it('a cap of 0 on the wait (PLE_MAX_RETRY_WAIT_S=0) still waits a second before the retry, as the JUCE module does', async () => {
    await faults([{ method: 'POST', route: '/api/license/v1/validate', kind: 'rate_limit', retryAfterS: 5 }])
    try {
      expect(
        run(['validate', '--license', CI.perpetual], { PLE_INSTANCE_ID: 'impatient', PLE_MAX_RETRY_WAIT_S: '0' })
      ).toMatchObject({ exit: 13, line: { outcome: 'rate_limited', waited_s: 1 } })
    } finally {
      await faults([])
    }
  })

  it('a tampered token is refused: a cached token whose claims were edited does not carry the plugin', async () => {
    const bought = await freshLicense()
    const env = { PLE_INSTANCE_ID: 'tamper-target' }
    expect(run(['activate', '--license', bought.license.key], env).exit).toBe(0)
    const file = join(cacheDir, `license-${bought.license.key}.json`)
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { license_token: string; nonce: string }
    const [header, payload, signature] = cached.license_token.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
    claims.iat = Number(claims.iat) + 365 * DAY // a longer offline life, forged
    writeFileSync(
      file,
      JSON.stringify({
        ...cached,
        license_token: `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
      })
    )
    await faults([{ route: '/api/license/v1/**', kind: 'offline' }])
    try {
      const refused = run(['validate', '--license', bought.license.key], env)
      expect(refused).toMatchObject({ exit: 14, line: { outcome: 'token_rejected' } })
      expect(refused.line.message).toMatch(/signature does not verify/)
    } finally {
      await faults([])
    }
  })

  /** The config the Credentials screen exports: values revealed through the management API, the public key from the service. */
  async function exportedConfig(): Promise<RuntimeConfig> {
    const session = await control('POST', `/developers/${CI.developerId}/session`, {})
    const revealed = await fetch(`${serve.baseUrl}/api/developer/plugin-keys/products/${CI.productId}/reveal-secret`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: '{}'
    })
    expect(revealed.status).toBe(200)
    const material = (
      (await revealed.json()) as { one_time_reveal: { appId: string; pluginKey: string; pluginSecret: string } }
    ).one_time_reveal
    const key = (await (await fetch(`${serve.baseUrl}/api/license/v1/public-key`)).json()) as {
      public_key_hex: string
      public_key_pem: string
    }
    return {
      appId: material.appId,
      pluginKey: material.pluginKey,
      pluginSecret: material.pluginSecret,
      productId: CI.productId,
      developerId: CI.developerId,
      environment: 'development',
      apiBaseUrl: serve.baseUrl,
      headerPrefix: 'svc',
      publicKeyHex: key.public_key_hex,
      publicKeyPem: key.public_key_pem
    }
  }
  /** Nothing of the suite's own configuration: what a test passes is all the client gets. */
  const NO_SUITE_CONFIG = {
    PLE_BASE_URL: undefined,
    PLE_APP_ID: undefined,
    PLE_PLUGIN_KEY: undefined,
    PLE_PLUGIN_SECRET: undefined,
    PLE_PRODUCT_ID: undefined,
    PLE_PUBLIC_KEY_HEX: undefined
  }

  it('runs from the .env file the UI exports, as is (verify, activate and a token checked against the exported public key)', async () => {
    const exported = parseEnv(toEnv(await exportedConfig()))
    const env = { ...NO_SUITE_CONFIG, ...exported, PLE_INSTANCE_ID: 'dotenv-box' }
    expect(run(['verify'], env)).toMatchObject({ exit: 0, line: { outcome: 'ok', code: 'VERIFIED' } })
    const bought = await freshLicense()
    expect(run(['activate', '--license', bought.license.key], env)).toMatchObject({ exit: 0, line: { outcome: 'ok' } })
    // The token is checked offline with PLE_PUBLIC_KEY_HEX from the file: a wrong key would refuse it (exit 14).
    expect(run(['validate', '--license', bought.license.key], env)).toMatchObject({
      exit: 0,
      line: { outcome: 'ok', code: 'VALID' }
    })
    expect(
      run(['validate', '--license', bought.license.key], { ...env, PLE_PUBLIC_KEY_HEX: '00'.repeat(32) }).exit
    ).toBe(14)
  })

  it('builds with the C++ header the UI exports (values revealed through the management API) and verifies with it', async () => {
    const headerPath = join(dir.path, 'ci_synth_plugin_config.h')
    writeFileSync(headerPath, toCppHeader(await exportedConfig()))
    const withHeader = buildClient('with-header', [`-DPLE_CONFIG_HEADER=${headerPath}`])
    // Nothing from the environment but where to keep the cache: the header holds the rest, the public key included.
    const env = { ...NO_SUITE_CONFIG, PLE_INSTANCE_ID: 'header-box' }
    expect(run(['verify'], env, withHeader)).toMatchObject({ exit: 0, line: { outcome: 'ok', code: 'VERIFIED' } })
    const bought = await freshLicense()
    expect(run(['activate', '--license', bought.license.key], env, withHeader)).toMatchObject({
      exit: 0,
      line: { outcome: 'ok' }
    })
    expect(run(['validate', '--license', bought.license.key], env, withHeader)).toMatchObject({
      exit: 0,
      line: { code: 'VALID' }
    })
  }, 300_000)

  it('a revoked credential is refused by licensing and by verification (run last: it revokes the suite credential)', async () => {
    const session = await control('POST', `/developers/${CI.developerId}/session`, {})
    const revoked = await fetch(`${serve.baseUrl}/api/developer/plugin-keys/products/${CI.productId}/revoke`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: '{}'
    })
    expect(revoked.status).toBe(200)
    expect(run(['validate', '--license', CI.perpetual])).toMatchObject({
      exit: 11,
      line: { outcome: 'auth_failed', code: 'PRODUCT_CREDENTIAL_INVALID' }
    })
    expect(run(['verify'])).toMatchObject({ exit: 11, line: { code: 'CREDENTIAL_REVOKED' } })
  })
})
