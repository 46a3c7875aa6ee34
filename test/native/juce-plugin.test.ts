import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { toCppHeader } from '../../src/shared/plugin-config/runtime-config'
import { killAllCli, startServeCli } from '../support/cli-process'
import type { ServingCli } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'
import { CI, CI_SCENARIO_FILE, emulatorControl } from './ci-scenario'
import { buildJucePlugin, LV2_URI, missingJuce } from './juce-toolchain'
import type { BuiltPlugin } from './juce-toolchain'

// The example JUCE plugin (examples/juce-plugin, licensed by the ple_licensing module), loaded by a
// headless JUCE host (AudioPluginFormatManager with the VST3 and LV2 formats) against a real
// `serve`: a 440 Hz sine goes in, and what comes out says whether the license lets it play.
const missing = missingJuce()
if (missing) process.stdout.write(`JUCE plugin suite skipped: ${missing}\n`)

const ADMIN_TOKEN = 'juce-suite-admin-token-00001'
const DAY = 86_400
// A test runs the host up to four times; each waits for the license to settle (seconds, at most 20).
const HOST_TIMEOUT_MS = 180_000
const FORMATS = ['VST3', 'LV2'] as const
type Format = (typeof FORMATS)[number]

interface HostRun {
  loaded: boolean
  status: string
  rms_in: number
  rms_out: number
}

// Skipped only where JUCE, CMake or the compiler are missing (`missing` names them); .ci/run installs them.
describe.skipIf(missing !== null)('the example JUCE plugin in a host, against a real serve', () => {
  let serve: ServingCli
  let plugin: BuiltPlugin
  const dir = makeTempDir('juce')
  let homes = 0

  const { control, faults, clock } = emulatorControl(() => serve.baseUrl, ADMIN_TOKEN)
  const offline = () => faults([{ route: '/api/license/v1/**', kind: 'offline' }])
  const freshLicense = async () =>
    (
      (await control('POST', '/purchases', {
        customerId: CI.customerId,
        productId: CI.productId,
        maxActivations: 3
      })) as {
        license: { id: string; key: string }
      }
    ).license

  /** A user's home of its own: the plugin keeps its last good token under ~/.config. */
  function newHome(): string {
    const home = join(dir.path, `home-${++homes}`)
    mkdirSync(home, { recursive: true })
    return home
  }
  const cacheFile = (home: string) => join(home, '.config', 'PLE Examples', 'PLE Licensed Gain', 'license.json')

  /** One host run: load the plugin, restore a state and/or put a key in it, feed the sine, measure. */
  function host(
    format: Format,
    home: string,
    options: { key?: string; stateIn?: string; stateOut?: string } = {}
  ): HostRun {
    const args = ['--format', format, '--settle-ms', '20000']
    // JUCE's LV2 format finds plugins by URI under ~/.lv2: the host links the bundle there.
    args.push(
      ...(format === 'VST3' ? ['--plugin', plugin.vst3] : ['--plugin', LV2_URI, '--lv2-bundle', plugin.lv2Bundle])
    )
    if (options.key) args.push('--license-key', options.key)
    if (options.stateIn) args.push('--state-in', options.stateIn)
    if (options.stateOut) args.push('--state-out', options.stateOut)
    const result = spawnSync(plugin.host, args, {
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' }
    })
    const last = (result.stdout ?? '').trim().split('\n').at(-1) ?? ''
    let run: HostRun
    try {
      run = JSON.parse(last) as HostRun
    } catch {
      throw new Error(
        `the host printed no result (exit ${result.status}, signal ${result.signal}):\n${result.stdout}\n${result.stderr}`
      )
    }
    expect(run.loaded, JSON.stringify(run)).toBe(true)
    expect(run.rms_in).toBeGreaterThan(0.3)
    // Nothing a plugin holds secret reaches the host's output.
    for (const secret of [CI.pluginSecret, CI.pluginKey]) expect(result.stdout + result.stderr).not.toContain(secret)
    return run
  }
  const silent = (run: HostRun) => expect(run.rms_out, JSON.stringify(run)).toBe(0)
  const audible = (run: HostRun) => expect(run.rms_out / run.rms_in, JSON.stringify(run)).toBeCloseTo(1, 2)

  beforeAll(async () => {
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
    const key = (await (await fetch(`${serve.baseUrl}/api/license/v1/public-key`)).json()) as {
      public_key_hex: string
      public_key_pem: string
    }
    // The header the desktop UI exports for this credential (its PLE_PUBLIC_KEY_HEX is the key the plugin pins).
    const header = toCppHeader({
      appId: CI.appId,
      pluginKey: CI.pluginKey,
      pluginSecret: CI.pluginSecret,
      productId: CI.productId,
      developerId: CI.developerId,
      environment: 'development',
      apiBaseUrl: serve.baseUrl,
      headerPrefix: 'svc',
      publicKeyHex: key.public_key_hex,
      publicKeyPem: key.public_key_pem
    })
    plugin = buildJucePlugin(header)
    process.stdout.write(`JUCE plugin suite: configure and build took ${plugin.buildSeconds} s\n`)
  }, 1_800_000)
  afterAll(async () => {
    await killAllCli()
    dir.remove()
  })

  describe.each(FORMATS)('%s', (format) => {
    it(
      'is silent unlicensed',
      () => {
        const run = host(format, newHome())
        expect(run.status).toBe('unlicensed')
        silent(run)
      },
      HOST_TIMEOUT_MS
    )

    it(
      'plays once activated; a restart with the saved state plays again with the server offline, inside the grace period',
      async () => {
        const home = newHome()
        const state = join(home, 'project.state')
        const activated = host(format, home, { key: CI.perpetual, stateOut: state })
        expect(activated.status).toBe('licensed')
        audible(activated)
        // The saved project holds the key: with the server up, it validates and plays.
        const reopened = host(format, home, { stateIn: state })
        expect(reopened.status).toBe('licensed')
        audible(reopened)
        await offline()
        try {
          const travelling = host(format, home, { stateIn: state })
          expect(travelling.status).toBe('offline_grace')
          audible(travelling)
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )

    it(
      'is silent offline past the grace period (the token was issued 8 days ago on the test clock)',
      async () => {
        const home = newHome()
        const state = join(home, 'project.state')
        await clock(-8 * DAY)
        try {
          const license = await freshLicense()
          // Online, the token's nonce proves it fresh whatever the clocks say: it plays.
          const activated = host(format, home, { key: license.key, stateOut: state })
          expect(activated.status).toBe('licensed')
          audible(activated)
        } finally {
          await clock(0)
        }
        await offline()
        try {
          const stale = host(format, home, { stateIn: state })
          expect(stale.status).toBe('error')
          silent(stale)
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )

    it(
      'is silent once the license is revoked, online and then offline (the saved token is dropped)',
      async () => {
        const home = newHome()
        const state = join(home, 'project.state')
        const license = await freshLicense()
        audible(host(format, home, { key: license.key, stateOut: state }))
        await control('PATCH', `/licenses/${license.id}`, { status: 'revoked' })
        const revoked = host(format, home, { stateIn: state })
        expect(revoked.status).toBe('refused')
        silent(revoked)
        await offline()
        try {
          silent(host(format, home, { stateIn: state }))
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )

    it(
      'is silent offline with a tampered token (its iat moved a year on to stretch the grace period)',
      async () => {
        const home = newHome()
        const state = join(home, 'project.state')
        const license = await freshLicense()
        audible(host(format, home, { key: license.key, stateOut: state }))
        const cached = JSON.parse(readFileSync(cacheFile(home), 'utf8')) as {
          license_key: string
          license_token: string
          nonce: string
        }
        const [head, payload, signature] = cached.license_token.split('.') as [string, string, string]
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
        claims.iat = Number(claims.iat) + 365 * DAY
        writeFileSync(
          cacheFile(home),
          JSON.stringify({
            ...cached,
            license_token: `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
          })
        )
        await offline()
        try {
          const tampered = host(format, home, { stateIn: state })
          expect(tampered.status).toBe('error')
          silent(tampered)
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )

    it(
      'honours Retry-After: a rate-limited check is retried after the wait, and the saved token carries the plugin meanwhile',
      async () => {
        const home = newHome()
        const state = join(home, 'project.state')
        const license = await freshLicense()
        audible(host(format, home, { key: license.key, stateOut: state }))
        await control('DELETE', '/requests')
        await faults([{ method: 'POST', route: '/api/license/v1/validate', kind: 'rate_limit', retryAfterS: 1 }])
        try {
          const limited = host(format, home, { stateIn: state })
          expect(limited.status).toBe('offline_grace')
          audible(limited)
          // The check on load asked twice: once, and once more after Retry-After.
          const { requests } = (await control('GET', '/requests?status=429')) as { requests: unknown[] }
          expect(requests).toHaveLength(2)
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )

    it(
      "is silent with another vendor's credential: its license key is refused online, its token offline",
      async () => {
        const vendor = (
          await control('POST', '/developers', { email: `other-${format}@vendor.test`, name: 'Other Vendor' })
        ).developer as { id: string }
        const product = (await control('POST', '/products', { developerId: vendor.id, name: `Other Reverb ${format}` }))
          .product as { id: string }
        const credential = (await control('POST', `/products/${product.id}/legacy-credential`, {})).oneTimeReveal as {
          appId: string
          pluginKey: string
          pluginSecret: string
        }
        const theirs = (
          (await control('POST', '/purchases', { customerId: CI.customerId, productId: product.id })) as {
            license: { key: string }
          }
        ).license
        // Online: our plugin's credential does not cover their product's key.
        const home = newHome()
        const refused = host(format, home, { key: theirs.key })
        expect(refused.status).toBe('refused')
        silent(refused)
        // Offline: a genuine token, signed by the service, but for their App ID, planted in our cache.
        const nonce = 'planted-nonce-0001'
        const activated = await fetch(`${serve.baseUrl}/api/license/v1/activate`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-svc-app-id': credential.appId,
            'x-svc-plugin-key': credential.pluginKey,
            'x-svc-plugin-secret': credential.pluginSecret
          },
          body: JSON.stringify({ license_key: theirs.key, instance_id: 'their-machine', nonce })
        })
        expect(activated.status).toBe(201)
        const { license_token: token } = (await activated.json()) as { license_token: string }
        mkdirSync(dirname(cacheFile(home)), { recursive: true })
        writeFileSync(cacheFile(home), JSON.stringify({ license_key: theirs.key, license_token: token, nonce }))
        await offline()
        try {
          const planted = host(format, home, { key: theirs.key })
          expect(planted.status).toBe('error')
          silent(planted)
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )
  })
})
