import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'vitest'

import { toCppHeader } from '../../src/shared/plugin-config/runtime-config'
import { projectRoot } from '../support/cli-process'
import { CI } from './ci-scenario'

export const PLUGIN_DIR = join(projectRoot, 'examples', 'juce-plugin')
export const LV2_URI = 'https://plugin-license-emulator.dev/examples/licensed-gain'
export const PLUGIN_FORMATS = ['VST3', 'LV2'] as const
export type PluginFormat = (typeof PLUGIN_FORMATS)[number]

const JUCE_PACKAGES =
  'apt-get install juce-modules-source libsodium-dev libcurl4-openssl-dev libasound2-dev libfreetype-dev libfontconfig1-dev libx11-dev libxrandr-dev libxinerama-dev libxcursor-dev libxcomposite-dev libxext-dev libxrender-dev libglu1-mesa-dev mesa-common-dev'

/** Why the example JUCE plugin cannot be built here (JUCE or a library missing), or null when it can. */
export function missingJuce(): string | null {
  if (process.platform !== 'linux')
    return 'the JUCE plugin suite runs on Linux (VST3 and LV2 through a headless JUCE host)'
  for (const tool of ['cmake', 'c++', 'pkg-config']) {
    if (spawnSync(tool, ['--version'], { stdio: 'ignore' }).status !== 0)
      return `${tool} is not installed (${JUCE_PACKAGES})`
  }
  if (!findJuceConfig()) return `JUCE's CMake package is not installed (${JUCE_PACKAGES})`
  for (const library of [
    'libsodium',
    'libcurl',
    'alsa',
    'freetype2',
    'fontconfig',
    'x11',
    'xrandr',
    'xinerama',
    'xcursor',
    'xcomposite',
    'xext',
    'xrender'
  ]) {
    if (spawnSync('pkg-config', ['--exists', library]).status !== 0)
      return `${library} is not installed (${JUCE_PACKAGES})`
  }
  return null
}

/** JUCE's CMake package: $JUCE_DIR, or Debian's juce-modules-source under /usr/lib/<arch>/cmake. */
function findJuceConfig(): string | null {
  if (process.env.JUCE_DIR && existsSync(join(process.env.JUCE_DIR, 'JUCEConfig.cmake'))) return process.env.JUCE_DIR
  for (const base of [
    '/usr/lib/x86_64-linux-gnu/cmake',
    '/usr/lib/aarch64-linux-gnu/cmake',
    '/usr/lib/cmake',
    '/usr/local/lib/cmake'
  ]) {
    if (!existsSync(base)) continue
    const found = readdirSync(base).find(
      (name) => /^JUCE-\d/.test(name) && existsSync(join(base, name, 'JUCEConfig.cmake'))
    )
    if (found) return join(base, found)
  }
  return null
}

/**
 * The header the desktop UI exports for the CI scenario's credential, with the plugin's base URL
 * and the key it pins (PLE_PUBLIC_KEY_HEX): the one GET /api/license/v1/public-key answers there.
 */
export async function ciPluginHeader(apiBaseUrl: string): Promise<{ header: string; publicKeyHex: string }> {
  const key = (await (await fetch(`${apiBaseUrl}/api/license/v1/public-key`)).json()) as {
    public_key_hex: string
    public_key_pem: string
  }
  const header = toCppHeader({
    appId: CI.appId,
    pluginKey: CI.pluginKey,
    pluginSecret: CI.pluginSecret,
    productId: CI.productId,
    developerId: CI.developerId,
    environment: 'development',
    apiBaseUrl,
    headerPrefix: 'svc',
    publicKeyHex: key.public_key_hex,
    publicKeyPem: key.public_key_pem
  })
  return { header, publicKeyHex: key.public_key_hex }
}

/** The tests' CMake build type (see buildJucePlugin); the artefacts go under a folder of its name. */
const BUILD_TYPE = 'Test'

export interface BuiltPlugin {
  buildDir: string
  vst3: string
  lv2Bundle: string
  standalone: string
  host: string
  /** Seconds the configure and build took in this run (a few when the cached build was current). */
  buildSeconds: number
}

/**
 * Configures and builds the example plugin (VST3, LV2, Standalone: one shared JUCE build) and the
 * headless host into `.tmp/juce/build`. The directory is kept between runs and make's dependency
 * tracking rebuilds only what changed: nothing, or the config header's one file when the
 * credential or key did, or a module source. JUCE itself is compiled once.
 */
export function buildJucePlugin(configHeader: string): BuiltPlugin {
  const buildDir = join(projectRoot, '.tmp', 'juce', 'build')
  mkdirSync(buildDir, { recursive: true })
  // The header goes where the build looks for it; rewritten only when it changed, so an unchanged
  // credential rebuilds nothing.
  const headerPath = join(buildDir, 'ple_plugin_config.h')
  if (!existsSync(headerPath) || readFileSync(headerPath, 'utf8') !== configHeader)
    writeFileSync(headerPath, configHeader)

  const started = Date.now()
  const run = (args: string[]) => {
    const result = spawnSync('cmake', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    if (result.status !== 0)
      throw new Error(`cmake ${args.join(' ')} failed:\n${result.stdout.slice(-8000)}\n${result.stderr.slice(-8000)}`)
  }
  const juceDir = findJuceConfig()
  run([
    '-S',
    PLUGIN_DIR,
    '-B',
    buildDir,
    // A build type of the tests' own: NDEBUG as in Release (JUCE's assertions off), without the -O3
    // JUCE's recommended flags add to Release. JUCE compiles in 2.5x less CPU at -O0 (the first
    // build took 401 s of a CI run at -O3), and a gain renders as fast as the tests need.
    `-DCMAKE_BUILD_TYPE=${BUILD_TYPE}`,
    `-DCMAKE_CXX_FLAGS_${BUILD_TYPE.toUpperCase()}=-O0 -DNDEBUG`,
    `-DCMAKE_C_FLAGS_${BUILD_TYPE.toUpperCase()}=-O0 -DNDEBUG`,
    `-DPLE_CONFIG_HEADER=${headerPath}`,
    ...(juceDir ? [`-DJUCE_DIR=${juceDir}`] : [])
  ])
  // Two jobs: the machine (and CI) is shared.
  run(['--build', buildDir, '-j', '2'])
  const artefacts = join(buildDir, 'PleLicensedGain_artefacts', BUILD_TYPE)
  return {
    buildDir,
    vst3: join(artefacts, 'VST3', 'PLE Licensed Gain.vst3'),
    lv2Bundle: join(artefacts, 'LV2', 'PLE Licensed Gain.lv2'),
    standalone: join(artefacts, 'Standalone', 'PLE Licensed Gain'),
    host: join(buildDir, 'PlePluginHost_artefacts', BUILD_TYPE, 'PlePluginHost'),
    buildSeconds: Math.round((Date.now() - started) / 1000)
  }
}

/**
 * Why the example plugin cannot be tried in Ardour here, or null when it can: Debian's Ardour 7
 * (`apt-get install ardour`) brings `ardour7-lua` and `ardour7-export`, which run headless.
 */
export function missingArdour(): string | null {
  for (const tool of ['ardour7-lua', 'ardour7-export']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0)
      return `${tool} is not installed (apt-get install ardour)`
  }
  return null
}

export interface HostRun {
  loaded: boolean
  /** After the license settled; with atLoad, after the render. */
  status: string
  /** The status the plugin's state gave just before the first block. */
  status_at_start: string
  rms_in: number
  rms_out: number
  /** Silent output samples before the first sound (the whole render's 51,200 when it stayed silent). */
  leading_silence: number
  /** How often processBlock waited for a check in progress (the module's counter, from the plugin's state). */
  render_waits: number
  render_ms: number
  /** With laterKey: just before the key went in (ms since the epoch, the system clock the inspector's `at` uses). */
  later_key_at?: number
}

export interface HostOptions {
  key?: string
  stateIn?: string
  stateOut?: string
  /** offline: as a bounce (VST3 kOffline, LV2 freewheeling); realtime (the default): as playback. */
  render?: 'realtime' | 'offline'
  /** Render right after prepareToPlay instead of once the license settled. */
  atLoad?: boolean
  /** How long an offline render waits for a check (the example's PLE_EXAMPLE_NONREALTIME_WAIT_MS; default 10 s). */
  nonRealtimeWaitMs?: number
  /**
   * A key put into the plugin's state laterMs (default 1500) after prepareToPlay, whatever the
   * license is doing then (another project restored into the running plugin); the run then waits
   * for the license to settle for this key.
   */
  laterKey?: string
  laterMs?: number
}

/**
 * One run of the headless host (PlePluginHost): load the plugin, restore a state and/or put a key
 * in it, feed a 440 Hz sine, measure. `home` is the user's home (the plugin caches its token there).
 */
export function runHost(plugin: BuiltPlugin, format: PluginFormat, home: string, options: HostOptions = {}): HostRun {
  const args = ['--format', format, '--settle-ms', '20000']
  // JUCE's LV2 format finds plugins by URI under ~/.lv2: the host links the bundle there.
  args.push(
    ...(format === 'VST3' ? ['--plugin', plugin.vst3] : ['--plugin', LV2_URI, '--lv2-bundle', plugin.lv2Bundle])
  )
  if (options.key) args.push('--license-key', options.key)
  if (options.stateIn) args.push('--state-in', options.stateIn)
  if (options.stateOut) args.push('--state-out', options.stateOut)
  if (options.render) args.push('--render', options.render)
  if (options.atLoad) args.push('--at-load')
  if (options.laterKey) args.push('--license-key-later', options.laterKey)
  if (options.laterMs !== undefined) args.push('--later-ms', String(options.laterMs))
  const result = spawnSync(plugin.host, args, {
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      LANG: 'C.UTF-8',
      ...(options.nonRealtimeWaitMs === undefined
        ? {}
        : { PLE_EXAMPLE_NONREALTIME_WAIT_MS: String(options.nonRealtimeWaitMs) })
    }
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
