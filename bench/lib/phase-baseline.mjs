// The baseline: the same load against a bare Fastify route in its own process.
import { warmAndMeasure } from './load.mjs'
import { baselineScript, projectRoot } from './paths.mjs'
import { cpuProfArgs, profileRef } from './profiling.mjs'
import { startServerProcess } from './server-process.mjs'

/** @param {import('./config.mjs').BenchConfig} config */
export async function runBaseline(config, log) {
  const server = await startServerProcess({
    script: baselineScript,
    args: ['--port', '0'],
    nodeArgs: config.profile ? cpuProfArgs('baseline') : [],
    cwd: projectRoot
  })
  try {
    // A body of the size the licensing runs send, parsed as JSON like theirs.
    const spec = {
      method: 'POST',
      path: '/',
      body: { license_key: 'VALID-00000-BENCH', instance_id: 'instance-validate-00000' }
    }
    const result = await warmAndMeasure(server.baseUrl, spec, config, server.pid)
    log(`  baseline: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`)
    return {
      name: 'baseline',
      label: 'baseline: bare Fastify, POST small JSON',
      ...result,
      profile: config.profile ? profileRef('baseline', server, result) : null
    }
  } finally {
    await server.stop()
  }
}
