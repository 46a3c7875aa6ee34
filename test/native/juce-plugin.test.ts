import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { killAllCli, startServeCli } from '../support/cli-process'
import type { ServingCli } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'
import { CI, CI_SCENARIO_FILE, emulatorControl } from './ci-scenario'
import {
  buildJucePlugin,
  ciPluginHeader,
  LV2_URI,
  missingArdour,
  missingJuce,
  PLUGIN_FORMATS,
  runHost
} from './juce-toolchain'
import type { BuiltPlugin, HostOptions, HostRun, PluginFormat } from './juce-toolchain'
// The plugin's flow through forwarding and replay (issues of the upstream and recordings) builds into
// the same folder with another header: registered from this file so the two never build at once.
import './juce-upstream.cases'

// The example JUCE plugin (examples/juce-plugin, licensed by the ple_licensing module), loaded by a
// headless JUCE host (AudioPluginFormatManager with the VST3 and LV2 formats) against a real
// `serve`: a 440 Hz sine goes in, and what comes out says whether the license lets it play.
const missing = missingJuce()
if (missing) process.stdout.write(`JUCE plugin suite skipped: ${missing}\n`)
// .ci/run does not install Ardour: its install alone takes longer than CI's time budget can spare
// (examples/juce-module/README.md has the figures). Where it is installed, the plugin is tried in it too.
const ardourMissing = missing ?? missingArdour()
if (ardourMissing) process.stdout.write(`JUCE plugin in Ardour skipped: ${ardourMissing}\n`)

const ADMIN_TOKEN = 'juce-suite-admin-token-00001'
const DAY = 86_400
// A test runs the host up to four times; each waits for the license to settle (seconds, at most 20).
const HOST_TIMEOUT_MS = 180_000
const FORMATS = PLUGIN_FORMATS
type Format = PluginFormat

const RENDER_SAMPLES = 100 * 512

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

  /**
   * The licensing requests the emulator logged, in arrival order (the system clock, as the host's
   * own times), with the first 429 and the request that followed it; `said` is the log, for messages.
   */
  async function afterFirst429() {
    const { requests } = (await control('GET', '/requests?path=/api/license/v1/')) as {
      requests: { at: string; path: string; status: number }[]
    }
    const arrivals = requests
      .map((request) => ({ atMs: Date.parse(request.at), path: request.path, status: request.status }))
      .sort((a, b) => a.atMs - b.atMs)
    const first = arrivals.findIndex((request) => request.status === 429)
    return {
      limited: arrivals[first],
      next: arrivals[first + 1],
      following: arrivals.slice(first + 1),
      said: JSON.stringify(requests)
    }
  }

  /** A user's home of its own: the plugin keeps its last good token under ~/.config. */
  function newHome(): string {
    const home = join(dir.path, `home-${++homes}`)
    mkdirSync(home, { recursive: true })
    return home
  }
  const cacheFile = (home: string) => join(home, '.config', 'PLE Examples', 'PLE Licensed Gain', 'license.json')

  const host = (format: Format, home: string, options: HostOptions = {}): HostRun =>
    runHost(plugin, format, home, options)
  const silent = (run: HostRun) => expect(run.rms_out, JSON.stringify(run)).toBe(0)
  const audible = (run: HostRun) => expect(run.rms_out / run.rms_in, JSON.stringify(run)).toBeCloseTo(1, 2)
  /** A user's home with a project the plugin was just licensed in (a new license), saved to project.state. */
  async function licensedProject(format: Format) {
    const home = newHome()
    const state = join(home, 'project.state')
    const license = await freshLicense()
    audible(host(format, home, { key: license.key, stateOut: state }))
    return { home, state, license }
  }

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
    // The header the desktop UI exports for this credential (its PLE_PUBLIC_KEY_HEX is the key the plugin pins).
    const { header } = await ciPluginHeader(serve.baseUrl)
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
        const { home, state, license } = await licensedProject(format)
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
        const { home, state } = await licensedProject(format)
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
        const { home, state } = await licensedProject(format)
        await control('DELETE', '/requests')
        // Over the module's 1 s floor, so a Retry-After read as 0 (JUCE's curl backend drops the
        // first response header, here Retry-After; the module then reads the body's retryAfter) fails.
        const retryAfterS = 2
        await faults([{ method: 'POST', route: '/api/license/v1/validate', kind: 'rate_limit', retryAfterS }])
        try {
          const limited = host(format, home, { stateIn: state })
          expect(limited.status).toBe('offline_grace')
          audible(limited)
          // Rate-limited, and asked again after Retry-After rather than giving up or hammering: the
          // retry of the check arrives a Retry-After after the first 429 (less a tenth for clock
          // granularity; the bug sent it about 100 ms later). How many requests follow depends on
          // how long the host runs (the plugin checks again a Retry-After later; a busy machine saw
          // 3), so the count is a floor, and the gap read is the first one.
          const { limited: firstLimited, next: retry, said } = await afterFirst429()
          if (firstLimited === undefined || retry === undefined)
            throw new Error(`no rate-limited check retried: ${said}`)
          expect(retry.atMs - firstLimited.atMs, said).toBeGreaterThanOrEqual(0.9 * retryAfterS * 1000)
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )

    // Every job the module queues notifies its worker thread: a job queued while the worker waits
    // out a 429 (here start() from another project restored into the running plugin; checkNow(),
    // activate() and deactivate() queue alike) must end neither that wait nor its own. The 429
    // fires once; then the first key's retry goes through, and the other key's check (validate:
    // NOT_ACTIVATED, then activate).
    it(
      'honours Retry-After for a job queued during the wait: a key restored meanwhile sends nothing before it either',
      async () => {
        const { home, state } = await licensedProject(format)
        const other = await freshLicense()
        await control('DELETE', '/requests')
        const retryAfterS = 2
        await faults([{ method: 'POST', route: '/api/license/v1/validate', kind: 'rate_limit', retryAfterS, times: 1 }])
        try {
          // The other key goes in 500 ms after prepareToPlay: the first check left at once (its 429
          // came 90-150 ms after prepareToPlay on an idle machine), so the key lands in the wait.
          const run = host(format, home, { stateIn: state, laterKey: other.key, laterMs: 500 })
          expect(run.status, JSON.stringify(run)).toBe('licensed')
          audible(run)
          const logged = await afterFirst429()
          const { limited, next, following } = logged
          const said = JSON.stringify({ run, requests: logged.said })
          if (limited === undefined || next === undefined) throw new Error(`no request after a 429: ${said}`)
          // The other key was queued before any request followed the 429 (an ordering, on one
          // system clock): while the worker was busy with the rate-limited check.
          expect(run.later_key_at, said).toBeLessThan(next.atMs)
          // No request, the retry's or the queued job's, before Retry-After (less a tenth for clock
          // granularity); the queued job ran after it: the other key's activation.
          expect(next.atMs - limited.atMs, said).toBeGreaterThanOrEqual(0.9 * retryAfterS * 1000)
          expect(
            following.map((request) => `${request.path} ${request.status}`),
            said
          ).toContain('/api/license/v1/activate 201')
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )

    // A bounce or an export right after a project opens (issue 40): the host renders faster than
    // real time while the first check is under way. The server holds its answers (a latency fault)
    // so that every render below certainly starts while the plugin is checking.
    it(
      'an offline render started at load, with a key and no saved license, is audible from its first sample once the server answers; one started after the decision does not wait',
      async () => {
        const home = newHome()
        const state = join(home, 'project.state')
        const license = await freshLicense()
        await faults([{ route: '/api/license/v1/**', kind: 'latency', ms: 1500 }])
        try {
          const bounce = host(format, home, { key: license.key, render: 'offline', atLoad: true, stateOut: state })
          expect(bounce.status_at_start).toBe('checking')
          expect(bounce.render_waits, JSON.stringify(bounce)).toBe(1)
          expect(bounce.leading_silence, JSON.stringify(bounce)).toBe(0)
          expect(bounce.status).toBe('licensed')
          audible(bounce)
        } finally {
          await faults([])
        }
        // The project again, its license settled before the render: no wait at all.
        const later = host(format, home, { stateIn: state, render: 'offline' })
        expect(later.status_at_start).toBe('licensed')
        expect(later.render_waits).toBe(0)
        expect(later.leading_silence).toBe(0)
        audible(later)
      },
      HOST_TIMEOUT_MS
    )

    it(
      'an offline render against a server that never answers waits the bound once, then renders silence instead of hanging',
      async () => {
        const license = await freshLicense()
        // The connection is dropped after a minute: far past the module's 5 s timeout and the 1 s bound.
        await faults([{ route: '/api/license/v1/**', kind: 'offline', ms: 60_000 }])
        try {
          const bounce = host(format, newHome(), {
            key: license.key,
            render: 'offline',
            atLoad: true,
            nonRealtimeWaitMs: 1000
          })
          expect(bounce.status_at_start).toBe('checking')
          expect(bounce.status).toBe('checking')
          // One wait for the whole render: a wait per block would take 100 blocks x 1 s.
          expect(bounce.render_waits, JSON.stringify(bounce)).toBe(1)
          expect(bounce.render_ms, JSON.stringify(bounce)).toBeLessThan(30_000)
          expect(bounce.leading_silence).toBe(RENDER_SAMPLES)
          silent(bounce)
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )

    it(
      'a realtime render never waits for a check in progress: it stays silent until the decision',
      async () => {
        const license = await freshLicense()
        await faults([{ route: '/api/license/v1/**', kind: 'latency', ms: 1500 }])
        try {
          const playback = host(format, newHome(), { key: license.key, render: 'realtime', atLoad: true })
          expect(playback.status_at_start).toBe('checking')
          expect(playback.render_waits, JSON.stringify(playback)).toBe(0)
          silent(playback)
        } finally {
          await faults([])
        }
      },
      HOST_TIMEOUT_MS
    )

    it(
      'with no key and no saved license, the state says unlicensed from the start, and a render has nothing to wait for',
      () => {
        const bounce = host(format, newHome(), { render: 'offline', atLoad: true })
        expect(bounce.status_at_start).toBe('unlicensed')
        expect(bounce.render_waits).toBe(0)
        silent(bounce)
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
  // Debian's Ardour 7, headless, as the plugin's customers run it (issue 40): Ardour's own sine
  // generator (SinGen) on a bus, the plugin (LV2) after it, the session exported by ardour7-export
  // (a freewheeling render, which the plugin sees as isNonRealtime()). The plugin is licensed by
  // this computer's saved license (the home's ~/.config), or not at all.
  // Skipped only where Ardour's headless tools are missing (`ardourMissing` names them); .ci/run installs them.
  describe.skipIf(ardourMissing !== null)("in Debian's Ardour 7, headless (LV2)", () => {
    const SECONDS = 3
    const RATE = 48_000
    let sessionDir: string
    const sessionName = 'licensed-gain'

    // ardour7-export 7.3 now and then never starts exporting (no progress at all): seen at a load
    // average of 20, and three tries in a row in one clean CI run. A normal export of this session
    // takes about 3 s, so a try still going after 30 s is killed (SIGKILL: a hung Ardour need not
    // end on SIGTERM) and tried again, from a fresh start: `argsOf(attempt)` makes each try's folder.
    // It also aborts now and then (glibc: "free(): invalid size", "double free or corruption"; a
    // core's stack: ARDOUR::PortExportChannel::~PortExportChannel, from main, after the export,
    // the plugin's threads idle), in the unlicensed export as in the licensed one, where the plugin
    // holds nothing: a try that dies of SIGABRT is tried again too, and said; so is one that dies of
    // SIGSEGV, which that corruption can end in as well (seen once in a clean CI run, 2026-11-29).
    // Worst case, both exports at 8 tries of 30 s: the test's 600 s.
    const ARDOUR_TRIES = 8
    const ARDOUR_TRY_MS = 30_000
    function ardour(tool: 'ardour7-lua' | 'ardour7-export', argsOf: (attempt: number) => string[], home: string) {
      for (let attempt = 1; ; attempt++) {
        const result = spawnSync(tool, argsOf(attempt), {
          encoding: 'utf8',
          timeout: ARDOUR_TRY_MS,
          killSignal: 'SIGKILL',
          env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', LV2_PATH: dirname(plugin.lv2Bundle) }
        })
        const timedOut = result.error !== undefined && 'code' in result.error && result.error.code === 'ETIMEDOUT'
        const aborted = result.signal === 'SIGABRT' || result.signal === 'SIGSEGV'
        if ((timedOut || aborted) && attempt < ARDOUR_TRIES) {
          const said = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-3).join(' | ')
          const what = timedOut ? `did not finish in ${ARDOUR_TRY_MS / 1000} s` : `died (${result.signal})`
          process.stdout.write(`${tool} ${what} (try ${attempt} of ${ARDOUR_TRIES}); its last words: ${said}\n`)
          continue
        }
        if (result.status !== 0)
          throw new Error(
            `${tool} failed (exit ${result.status}, signal ${result.signal}):\n${result.stdout}\n${result.stderr}`
          )
        return result
      }
    }

    beforeAll(() => {
      sessionDir = join(dir.path, 'ardour-session')
      const script = join(dir.path, 'create-session.lua')
      writeFileSync(
        script,
        [
          'AudioEngine:set_backend ("None (Dummy)", "", "")',
          'AudioEngine:start (false)',
          `local s = create_session (${JSON.stringify(sessionDir)}, "${sessionName}", ${RATE})`,
          'assert (s, "the session was not created")',
          'local bus = s:new_audio_route (2, 2, nil, 1, "Tone", ARDOUR.PresentationInfo.Flag.AudioBus, -1):front ()',
          'local tone = ARDOUR.LuaAPI.new_luaproc (s, "SinGen")',
          'assert (not tone:isnil (), "no SinGen")',
          'bus:add_processor_by_index (tone, 0, nil, true)',
          `local plugin = ARDOUR.LuaAPI.new_plugin (s, "${LV2_URI}", ARDOUR.PluginType.LV2, "")`,
          'assert (not plugin:isnil (), "the plugin was not found")',
          'bus:add_processor_by_index (plugin, 1, nil, true)',
          `s:locations ():add_range (Temporal.timepos_t (0), Temporal.timepos_t (${RATE * SECONDS}))`,
          's:save_state ("", false, false, false, false, false)',
          'close_session ()',
          'print ("session created")'
        ].join('\n')
      )
      // Inserting the plugin with no key and no saved license touches no network. A try that was
      // killed may have left a half-made session: each try starts without one.
      ardour(
        'ardour7-lua',
        () => {
          rmSync(sessionDir, { recursive: true, force: true })
          return [script]
        },
        newHome()
      )
      // Ardour's Lua has no call that sets the session range (what ardour7-export renders): the
      // range marker made above becomes it.
      const file = join(sessionDir, `${sessionName}.ardour`)
      const xml = readFileSync(file, 'utf8')
      const patched = xml.replace(
        /name="range1" (start="a0" end="a\d+") flags="IsRangeMarker"/,
        'name="session" $1 flags="IsSessionRange"'
      )
      expect(patched).not.toBe(xml)
      writeFileSync(file, patched)
    }, 240_000)

    /** The session exported as a stereo 16-bit WAV by a user whose home is `home`. */
    function exportSession(home: string): { rms: number; leadingSilenceS: number } {
      const out = join(home, 'export.wav')
      // Each try exports its own copy of the session made in beforeAll: nothing an earlier export
      // (or a killed try) wrote into a session folder is read by the next.
      ardour(
        'ardour7-export',
        (attempt) => {
          const copy = join(home, `session-${attempt}`)
          cpSync(sessionDir, copy, { recursive: true })
          return ['-o', out, copy, sessionName]
        },
        home
      )
      const samples = wavSamples(readFileSync(out))
      expect(samples.length).toBeGreaterThanOrEqual(2 * RATE * SECONDS * 0.99)
      let sum = 0
      let first = -1
      for (let i = 0; i < samples.length; i++) {
        const x = samples[i]! / 32768
        sum += x * x
        if (first < 0 && Math.abs(x) > 0.01) first = i
      }
      return {
        rms: Math.sqrt(sum / samples.length),
        leadingSilenceS: (first < 0 ? samples.length : first) / 2 / RATE
      }
    }

    it(
      "renders audible from its start with this computer's license, even while its check is held up; silent without one",
      async () => {
        const licensedHome = newHome()
        const license = await freshLicense()
        // This computer's license: activated once in the headless host, saved under ~/.config.
        expect(host('LV2', licensedHome, { key: license.key }).status).toBe('licensed')
        // The export starts while the plugin is still checking: the server holds its answer 1.5 s.
        await faults([{ route: '/api/license/v1/**', kind: 'latency', ms: 1500 }])
        let licensed: { rms: number; leadingSilenceS: number }
        try {
          licensed = exportSession(licensedHome)
        } finally {
          await faults([])
        }
        // SinGen's -18 dB sine (rms 0.089) from its first few samples; before issue 40 the
        // head stayed silent for as long as the check took.
        expect(licensed.rms, JSON.stringify(licensed)).toBeGreaterThan(0.05)
        expect(licensed.leadingSilenceS, JSON.stringify(licensed)).toBeLessThan(0.05)

        const unlicensed = exportSession(newHome())
        expect(unlicensed.rms, JSON.stringify(unlicensed)).toBe(0)
      },
      // Two exports, each tried up to ARDOUR_TRIES times (30 s a try), and the host's activation.
      600_000
    )
  })
})

/** The interleaved 16-bit samples of a PCM WAV file (its `data` chunk). */
function wavSamples(wav: Buffer): Int16Array {
  let offset = 12
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4)
    const size = wav.readUInt32LE(offset + 4)
    if (id === 'data') {
      const data = wav.subarray(offset + 8, offset + 8 + size)
      return new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.length))
    }
    offset += 8 + size + (size % 2)
  }
  throw new Error('the WAV file has no data chunk')
}
