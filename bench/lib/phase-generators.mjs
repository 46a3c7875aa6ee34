// The generator check: bare Fastify and the limit, each measured with both load generators, one
// after the other. If the generator in use capped the faster server, its figures would read
// lower than the other generator's; the report shows the difference and each generator's share
// of the machine, so a reader can see the bench measures the servers, not itself.
import { GENERATORS } from './config.mjs'
import { runBaseline } from './phase-baseline.mjs'
import { runLimit } from './phase-limit.mjs'

/**
 * @param {import('./config.mjs').BenchConfig} config
 * @param {import('./fixtures.mjs').Fixtures} fixtures
 * @param {string} workDir
 */
export async function runGeneratorCheck(config, fixtures, workDir, log) {
  const measure = {
    baseline: (generatorConfig) => runBaseline(generatorConfig, log),
    limit: (generatorConfig) => runLimit(generatorConfig, fixtures, workDir, log)
  }
  const servers = []
  for (const [name, run] of Object.entries(measure)) {
    const byGenerator = {}
    for (const generator of GENERATORS) {
      log(`  ${name} with ${generator}`)
      const measured = await run({ ...config, generator, profile: false })
      byGenerator[generator] = {
        rps: measured.rps,
        p50: measured.p50,
        p99: measured.p99,
        generator: measured.generator
      }
    }
    servers.push({ name, ...byGenerator, rpsDifference: difference(byGenerator) })
  }
  return { servers }
}

/** The other generator's req/s against the one in use, as a signed share: +0.05 reads 5% higher. */
function difference(byGenerator) {
  const [a, b] = GENERATORS.map((g) => byGenerator[g].rps)
  return a ? Math.round(((b - a) / a) * 1000) / 1000 : null
}
