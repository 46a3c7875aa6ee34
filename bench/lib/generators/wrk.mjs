// The default load generator: wrk (C, one thread, its own process), fed by wrk-load.lua from a
// request file prepared before the run. It costs the servers the least of the two generators.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

import { generatorCpu, runMeasured } from './measured-process.mjs'
import { requestFileText, runTag } from './request-spec.mjs'

const luaScript = fileURLToPath(new URL('./wrk-load.lua', import.meta.url))

/** Whether wrk is on the PATH (Debian: apt-get install wrk). */
export function hasWrk() {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined
}

/**
 * One timed run. wrk counts no requests, only time: a run of a fixed count goes to autocannon.
 * @param {string} baseUrl
 * @param {import('./request-spec.mjs').LoadSpec} spec
 * @param {{ connections: number, durationS: number }} how
 */
export async function runWrk(baseUrl, spec, how) {
  const dir = mkdtempSync(join(tmpdir(), 'ple-wrk-'))
  try {
    const requestFile = join(dir, 'requests.txt')
    writeFileSync(requestFile, requestFileText(spec))
    const args = [
      '-t',
      '1',
      '-c',
      String(how.connections),
      '-d',
      `${how.durationS}s`,
      '--timeout',
      '30s',
      '-s',
      luaScript,
      baseUrl,
      '--',
      requestFile,
      runTag()
    ]
    const run = await runMeasured('wrk', args)
    const result = parseWrkResult(run.stdout)
    if (run.code !== 0 || !result)
      throw new Error(`wrk failed (exit ${run.code}): ${run.stderr.trim() || run.stdout.trim()}`)
    return { ...toLoadResult(result), generator: generatorCpu('wrk', run.cpuS, run.wallS) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The WRK_RESULT line wrk-load.lua's done() prints, or null. */
export function parseWrkResult(stdout) {
  const line = stdout.split('\n').find((l) => l.startsWith('WRK_RESULT '))
  return line ? JSON.parse(line.slice('WRK_RESULT '.length)) : null
}

const ms = (us) => Math.round(us / 10) / 100

/**
 * wrk's figures in the bench's LoadResult shape. wrk counts every answer over 399 as a status
 * error; the bench expects 200 or 201 everywhere, so those are the unexpected answers.
 */
export function toLoadResult(r) {
  const durationS = r.durationUs / 1e6
  return {
    rps: Math.round(r.requests / durationS),
    p50: ms(r.p50Us),
    p99: ms(r.p99Us),
    mean: ms(r.meanUs),
    max: ms(r.maxUs),
    requests: r.requests,
    non2xx: r.statusErrors,
    unexpected: r.statusErrors,
    errors: r.connectErrors + r.readErrors + r.writeErrors + r.timeouts,
    durationS: Math.round(durationS * 100) / 100
  }
}
