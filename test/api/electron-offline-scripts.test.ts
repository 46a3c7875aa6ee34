import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { projectRoot } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'

// `npm start`, `npm run build:native:electron` and `npm run package` where Electron cannot be
// downloaded: every download is pointed at a closed port on 127.0.0.1, the cache at an empty
// folder. Each must end non-zero with an explanation, not a bare `TypeError: fetch failed` stack.

const closed = 'http://127.0.0.1:9/'
const cache = makeTempDir('electron-cache')
const out = makeTempDir('electron-native-out')
afterAll(() => {
  cache.remove()
  out.remove()
})

// Where the Electron binary is installed, `npm start` would start the app instead.
const electronInstalled = existsSync(join(projectRoot, 'node_modules', 'electron', 'dist', 'version'))

function npmRun(args: string[]) {
  const result = spawnSync('npm', args, {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      ELECTRON_MIRROR: closed,
      ELECTRON_HEADERS_MIRROR: closed,
      npm_config_better_sqlite3_binary_host: closed,
      electron_config_cache: cache.path
    }
  })
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` }
}

function expectExplained(output: string, command: string) {
  expect(output).toContain(command)
  expect(output).toContain('ELECTRON_MIRROR')
  expect(output).toContain('electron_config_cache')
  // The exact place to drop a downloaded zip, inside the cache folder given.
  expect(output).toMatch(
    new RegExp(`${cache.path}/[0-9a-f]{64}/electron-v[\\d.]+-${process.platform}-${process.arch}\\.zip`)
  )
  expect(output).toContain('`npm run serve` runs the same server and the\nsame UI, in your browser')
  // The installer's stack is not passed through.
  expect(output).not.toMatch(/^\s+at .*@electron\/get/m)
}

describe('Electron downloads that fail explain themselves', () => {
  // Skipped where the Electron binary is installed: these check the explanation of a download that fails.
  it.skipIf(electronInstalled)('npm start', () => {
    const run = npmRun(['start'])
    expect(run.status).not.toBe(0)
    expect(run.output).toContain(
      `npm start needs the Electron binary, and it could not be downloaded from the mirror ${closed}:`
    )
    expect(run.output).toContain('TypeError: fetch failed')
    expectExplained(run.output, 'npm start')
  })

  // Skipped where the Electron binary is installed, as above: there is no failed download to explain.
  it.skipIf(electronInstalled)('npm run package stops before electron-builder', () => {
    const run = npmRun(['run', 'package'])
    expect(run.status).not.toBe(0)
    expect(run.output).toContain('npm run package needs the Electron binary')
    expectExplained(run.output, 'npm run package')
    expect(run.output).not.toContain('electron-builder  version')
  })

  it('npm run build:native:electron', () => {
    const run = npmRun(['run', 'build:native:electron', '--', '--out-dir', out.path])
    expect(run.status).not.toBe(0)
    expect(run.output).toContain(`or Electron's headers (from ${closed}), and neither could be downloaded`)
    expect(run.output).toContain('--headers-dir')
    expectExplained(run.output, 'build:native:electron')
    expect(existsSync(join(out.path, 'better_sqlite3.node'))).toBe(false)
  })

  it("prints the path @electron/get's own cache reads the zip from", async () => {
    // @electron/get comes with electron (it is electron's downloader); its Cache names the folder.
    const { Cache } = (await import(join(projectRoot, 'node_modules', '@electron', 'get', 'dist', 'Cache.js'))) as {
      Cache: new (root: string) => { getCachePath(url: string, file: string): string }
    }
    const help = (await import(join(projectRoot, 'scripts', 'electron-download-help.mjs'))) as {
      electronVersion(): string
      electronCachePath(version: string, env: Record<string, string>): { dir: string; file: string }
    }
    const version = help.electronVersion()
    const ours = help.electronCachePath(version, { ELECTRON_MIRROR: closed, electron_config_cache: cache.path })
    const url = `${closed}v${version}/${ours.file}`
    expect(join(ours.dir, ours.file)).toBe(new Cache(cache.path).getCachePath(url, ours.file))
  })
})
