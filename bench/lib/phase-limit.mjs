// The second baseline: the limit server (bench/limit-server.mjs), loaded exactly as the emulator's
// validate run is, over its own SQLite database of 10,000 licenses in the bench's work folder.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { ENDPOINTS, preflight } from './endpoints.mjs'
import { warmAndMeasure } from './load.mjs'
import { limitScript, projectRoot } from './paths.mjs'
import { cpuProfArgs, profileRef } from './profiling.mjs'
import { startServerProcess } from './server-process.mjs'

/**
 * @param {import('./config.mjs').BenchConfig} config
 * @param {import('./fixtures.mjs').Fixtures} fixtures
 * @param {string} workDir
 */
export async function runLimit(config, fixtures, workDir, log) {
  const fixturesFile = join(workDir, 'limit-fixtures.json')
  writeFileSync(fixturesFile, JSON.stringify({ plugin: fixtures.plugin, validateLicenses: fixtures.validateLicenses }))
  const server = await startServerProcess({
    script: limitScript,
    args: ['--port', '0', '--db', join(workDir, 'limit.db'), '--fixtures', fixturesFile],
    nodeArgs: config.profile ? cpuProfArgs('limit') : [],
    cwd: projectRoot
  })
  try {
    const validate = ENDPOINTS.find((endpoint) => endpoint.name === 'validate')
    const spec = await validate.prepare(null, fixtures)
    await preflight(server.baseUrl, spec)
    const result = await warmAndMeasure(server.baseUrl, spec, config, server.pid)
    log(
      `  limit: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms (1 connection: ${result.single.perCallMs} ms a call, ${result.single.cpuUsPerRequest} us CPU)`
    )
    return {
      name: 'limit',
      label: 'limit: validate with the least work (hash, 2 reads, sign)',
      ...result,
      profile: config.profile ? profileRef('limit', server, result) : null
    }
  } catch (error) {
    throw new Error(`limit: ${error.message}\nserver stderr:\n${server.stderr()}`)
  } finally {
    await server.stop()
  }
}
