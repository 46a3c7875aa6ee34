#!/usr/bin/env node
// `npm run build:native:electron`: builds better-sqlite3 for the Electron in node_modules, into
// build/native/electron-v<abi>-<platform>-<arch>/better_sqlite3.node, and nothing else.
//
// Why: better-sqlite3 is a native addon compiled for one ABI. node_modules/better-sqlite3/build
// holds the Node build that the tests and `serve` load; Electron 45 has a different ABI. Rebuilding
// node_modules in place for Electron (what electron-rebuild does) would break the Node side until
// the next reinstall, so the desktop app loads this second copy through better-sqlite3's
// `nativeBinding` option instead (src/main/native-binding.ts resolves the same path), and
// electron-builder ships it as an extra resource (electron-builder.yml).
//
// How: a copy of the better-sqlite3 package (its sources and the bundled SQLite) goes to a temp
// directory; there, the project's own prebuilt binary for Electron is downloaded (prebuild-install,
// as better-sqlite3's own install does for Node), or compiled with node-gyp against Electron's
// headers when there is none (or with --from-source). Both need network access (GitHub releases or
// electronjs.org/headers) the first time. node_modules is only read; the script checks at the end
// that node_modules/better-sqlite3/build did not change.
//
// Options:
//   --arch <arch>         target architecture (default: this machine's)
//   --from-source         skip the prebuilt download and compile
//   --headers-dir <dir>   compile against headers already on disk (an extracted Electron headers
//                         tarball) instead of downloading them; implies --from-source
// Environment: ELECTRON_HEADERS_MIRROR replaces https://electronjs.org/headers.
//   --out-dir <dir>       write somewhere else than build/native/<name> (for trying the script out)
//   --print-out-dir       print the output directory and exit
//   --if-missing          do nothing when the build for this Electron is already there (for a
//                         hook before `npm start`)
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { homedir, tmpdir } from 'node:os'
import { join, relative, resolve, sep } from 'node:path'
import { parseArgs } from 'node:util'

import { electronDownloadHelp } from './electron-download-help.mjs'

const root = resolve(import.meta.dirname, '..')
const BINARY = 'better_sqlite3.node'

const { values: options } = parseArgs({
  options: {
    arch: { type: 'string', default: process.arch },
    'from-source': { type: 'boolean', default: false },
    'headers-dir': { type: 'string' },
    'out-dir': { type: 'string' },
    'print-out-dir': { type: 'boolean', default: false },
    'if-missing': { type: 'boolean', default: false }
  }
})

// Read, not require('electron'): requiring it downloads the Electron binary.
const electronPackage = join(root, 'node_modules', 'electron')
const electronVersion = JSON.parse(readFileSync(join(electronPackage, 'package.json'), 'utf8')).version
const abi = readFileSync(join(electronPackage, 'abi_version'), 'utf8').trim()
const platform = process.platform
const arch = options.arch
// Keep in step with electronNativeDirName in src/main/native-binding.ts.
const dirName = `electron-v${abi}-${platform}-${arch}`
const nativeRoot = join(root, 'build', 'native')
const outDir = resolve(options['out-dir'] ?? join(nativeRoot, dirName))

if (options['print-out-dir']) {
  process.stdout.write(`${outDir}\n`)
  process.exit(0)
}

if (options['if-missing'] && existsSync(join(outDir, BINARY))) {
  log(`${join(outDir, BINARY)} is there already`)
  process.exit(0)
}

const sourcePackage = join(root, 'node_modules', 'better-sqlite3')
const betterSqlite3Version = JSON.parse(readFileSync(join(sourcePackage, 'package.json'), 'utf8')).version
const nodeBuild = join(sourcePackage, 'build', 'Release', BINARY)
const nodeBuildBefore = fingerprint(nodeBuild)

log(`better-sqlite3 ${betterSqlite3Version} for Electron ${electronVersion} (ABI ${abi}, ${platform}-${arch})`)
const work = mkdtempSync(join(tmpdir(), 'ple-native-'))
try {
  const copy = join(work, 'better-sqlite3')
  // Sources only: the copy's build/ starts empty, so nothing of the Node build can leak into it.
  cpSync(sourcePackage, copy, {
    recursive: true,
    filter: (path) => !['build', 'node_modules'].includes(relative(sourcePackage, path).split(sep)[0] ?? '')
  })

  const fromSource = options['from-source'] || options['headers-dir'] !== undefined
  let built = false
  if (!fromSource) built = downloadPrebuilt(copy)
  if (!built) compile(copy)

  const result = join(copy, 'build', 'Release', BINARY)
  if (!existsSync(result)) throw new Error(`the build finished without ${result}`)
  mkdirSync(outDir, { recursive: true })
  cpSync(result, join(outDir, BINARY))
  writeFileSync(
    join(outDir, 'manifest.json'),
    JSON.stringify(
      {
        electron: electronVersion,
        abi,
        platform,
        arch,
        betterSqlite3: betterSqlite3Version,
        // Headers given by hand are recorded: they decide the ABI, whatever the directory name says.
        ...(options['headers-dir'] ? { headersDir: resolve(options['headers-dir']) } : {}),
        sha256: fingerprint(join(outDir, BINARY))
      },
      null,
      2
    ) + '\n'
  )
  if (!options['out-dir']) removeStaleBuilds()
  log(`wrote ${join(outDir, BINARY)}`)
} catch (error) {
  console.error(`build-electron-native: ${error instanceof Error ? error.message : String(error)}`)
  if (error?.mayBeOffline) {
    console.error(
      electronDownloadHelp(
        `better-sqlite3 for Electron needs its prebuilt binary (from GitHub) or Electron's headers (from ${process.env.ELECTRON_HEADERS_MIRROR || 'electronjs.org/headers'}), and neither could be downloaded`,
        'see the prebuild-install and node-gyp output above'
      )
    )
  }
  process.exitCode = 1
} finally {
  rmSync(work, { recursive: true, force: true })
}

if (fingerprint(nodeBuild) !== nodeBuildBefore) {
  console.error(
    `build-electron-native: ${nodeBuild} changed; reinstall better-sqlite3 (npm rebuild better-sqlite3) and report this.`
  )
  process.exitCode = 1
}

/** better-sqlite3's published Electron binary, as its own install fetches the Node one. */
function downloadPrebuilt(copy) {
  const requireFromPackage = createRequire(join(sourcePackage, 'package.json'))
  let bin
  try {
    bin = requireFromPackage.resolve('prebuild-install/bin.js')
  } catch {
    log('prebuild-install is not installed; compiling instead')
    return false
  }
  log('downloading the prebuilt binary (prebuild-install)')
  const run = spawnSync(
    process.execPath,
    [bin, '--runtime=electron', `--target=${electronVersion}`, `--arch=${arch}`, `--platform=${platform}`, '--verbose'],
    {
      cwd: copy,
      stdio: 'inherit',
      env: cleanEnv()
    }
  )
  if (run.status === 0 && existsSync(join(copy, 'build', 'Release', BINARY))) return true
  log('no prebuilt binary could be downloaded; compiling instead')
  return false
}

/** node-gyp against Electron's headers: downloaded from electronjs.org, or given with --headers-dir. */
function compile(copy) {
  const nodeGyp = findNodeGyp()
  const headers = options['headers-dir']
    ? [`--nodedir=${resolve(options['headers-dir'])}`]
    : [
        `--target=${electronVersion}`,
        `--dist-url=${process.env.ELECTRON_HEADERS_MIRROR || 'https://electronjs.org/headers'}`,
        `--devdir=${join(homedir(), '.electron-gyp')}`
      ]
  log(`compiling with node-gyp (${headers.join(' ')})`)
  const run = spawnSync(process.execPath, [nodeGyp, 'rebuild', '--release', `--arch=${arch}`, ...headers], {
    cwd: copy,
    stdio: 'inherit',
    env: cleanEnv()
  })
  if (run.status !== 0) {
    const failure = new Error(
      `node-gyp failed (exit ${run.status ?? run.signal}); it needs Python, a C++20 compiler and Electron's headers (network access)`
    )
    // Without --headers-dir the headers are downloaded first: offline, that is what failed.
    if (!options['headers-dir']) failure.mayBeOffline = true
    throw failure
  }
}

function findNodeGyp() {
  const require = createRequire(join(root, 'package.json'))
  try {
    return require.resolve('node-gyp/bin/node-gyp.js')
  } catch {
    // npm names its own bundled node-gyp to scripts it runs.
    if (process.env.npm_config_node_gyp && existsSync(process.env.npm_config_node_gyp))
      return process.env.npm_config_node_gyp
    throw new Error('node-gyp not found: run this through npm (npm run build:native:electron) or install node-gyp')
  }
}

/**
 * npm passes its config to scripts as npm_config_* variables, and node-gyp and prebuild-install
 * obey them: a `nodedir` in .npmrc (set on some machines to build against Node's headers) would
 * silently build for Node again. The target is given explicitly instead.
 */
function cleanEnv() {
  const env = { ...process.env }
  for (const key of Object.keys(env)) {
    if (/^npm_config_(nodedir|target|runtime|arch|target_arch|disturl|dist_url|build_from_source|devdir)$/i.test(key))
      delete env[key]
  }
  return env
}

/** Earlier Electron builds for this platform and arch: electron-builder would ship them all. */
function removeStaleBuilds() {
  if (!existsSync(nativeRoot)) return
  for (const entry of readdirSync(nativeRoot)) {
    if (entry !== dirName && entry.startsWith('electron-v') && entry.endsWith(`-${platform}-${arch}`)) {
      rmSync(join(nativeRoot, entry), { recursive: true, force: true })
      log(`removed the stale ${entry}`)
    }
  }
}

function fingerprint(path) {
  return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'missing'
}

function log(message) {
  process.stdout.write(`build-electron-native: ${message}\n`)
}
