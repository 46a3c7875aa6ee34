// The second load generator: autocannon, run as its own process over the same prepared requests.
// It serves the runs of a fixed request count (wrk only runs for a time) and the generator check.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { generatorCpu, runMeasured } from './measured-process.mjs'
import { prepareRequests, runTag } from './request-spec.mjs'

const childScript = fileURLToPath(new URL('./autocannon-child.mjs', import.meta.url))

/**
 * @param {string} baseUrl
 * @param {import('./request-spec.mjs').LoadSpec} spec
 * @param {{ connections: number, durationS?: number, amount?: number }} how
 */
export async function runAutocannon(baseUrl, spec, how) {
  const dir = mkdtempSync(join(tmpdir(), 'ple-autocannon-'))
  try {
    const runFile = join(dir, 'run.json')
    writeFileSync(
      runFile,
      JSON.stringify({
        baseUrl,
        connections: how.connections,
        durationS: how.durationS,
        amount: how.amount,
        tag: runTag(),
        prepared: prepareRequests(spec)
      })
    )
    const run = await runMeasured(process.execPath, [childScript, runFile])
    const line = run.stdout.split('\n').find((l) => l.startsWith('AUTOCANNON_RESULT '))
    if (run.code !== 0 || !line) throw new Error(`autocannon failed (exit ${run.code}): ${run.stderr.trim()}`)
    const { firstUnexpected, ...result } = JSON.parse(line.slice('AUTOCANNON_RESULT '.length))
    if (firstUnexpected)
      process.stderr.write(
        `  ! ${result.unexpected} answers were not ${spec.expectStatus ?? 200}; first: ${firstUnexpected}\n`
      )
    return { ...result, generator: generatorCpu('autocannon', run.cpuS, run.wallS) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
