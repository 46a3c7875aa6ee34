import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { cliEntry, projectRoot } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'

// examples/cmake/PluginLicenseEmulator.cmake, as a plugin repository uses it: configure writes
// the test header (the emulator started once), CTest starts the emulator as a fixture, runs a
// test against it and stops it. No compiler involved: the project has no language.
const missing = ['cmake', 'ctest'].find((tool) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).status !== 0)
if (missing) process.stdout.write(`CMake fixture suite skipped: ${missing} is not installed (apt-get install cmake)\n`)

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

// Skipped only where CMake or the compiler are missing (`missing` names them); .ci/run installs them.
describe.skipIf(missing !== undefined)('the CMake helper: the emulator as a CTest fixture', () => {
  const dir = makeTempDir('cmake-fixture')
  afterAll(() => dir.remove())

  it('writes the header at configure time and serves the key it pinned to the tests, then stops', async () => {
    const port = await freePort()
    const build = join(dir.path, 'build')
    const configure = spawnSync(
      'cmake',
      [
        '-S',
        join(projectRoot, 'test', 'native', 'cmake-fixture'),
        '-B',
        build,
        `-DPLE_EMULATOR_PORT=${port}`,
        `-DPLE_EMULATOR_SCENARIO=${join(projectRoot, 'resources', 'scenarios', 'ci.json')}`,
        `-DPLE_EMULATOR_COMMAND=${process.execPath};${cliEntry}`
      ],
      { encoding: 'utf8' }
    )
    expect(configure.status, configure.stdout + configure.stderr).toBe(0)
    const header = readFileSync(join(build, 'ple_plugin_config.h'), 'utf8')
    expect(header).toContain('inline constexpr const char* kAppId = "app_CiSynth00000000000000001";')
    expect(header).toContain(`inline constexpr const char* kApiBaseUrl = "http://127.0.0.1:${port}";`)
    expect(header).toMatch(/inline constexpr const char\* PLE_PUBLIC_KEY_HEX = "[0-9a-f]{64}";/)

    const tests = spawnSync('ctest', ['--test-dir', build, '--output-on-failure'], { encoding: 'utf8' })
    expect(tests.status, tests.stdout + tests.stderr).toBe(0)
    expect(tests.stdout).toMatch(/emulator_start \.+\s+Passed/)
    expect(tests.stdout).toMatch(/serves_the_pinned_key \.+\s+Passed/)
    expect(tests.stdout).toMatch(/emulator_stop \.+\s+Passed/)
    // Stopped: nothing listens on the port any more.
    await expect(fetch(`http://127.0.0.1:${port}/_emulator/health`)).rejects.toThrow()
  }, 120_000)
})
