#!/usr/bin/env node
// `npm run bench`: the emulator's performance figures in one run, separate from the tests.
// Every server it measures (the built CLI `serve`, bare Fastify, the limit) runs in its own child
// process, and so does the load generator (wrk, or autocannon): this process only prepares the
// requests and reads the figures. See bench/README.md.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'

import { buildBundle } from './lib/build.mjs'
import { parseConfig, USAGE } from './lib/config.mjs'
import { buildFixtures } from './lib/fixtures.mjs'
import { hasWrk } from './lib/generators/wrk.mjs'
import { cliBundle, profilesDir } from './lib/paths.mjs'
import { runBaseline } from './lib/phase-baseline.mjs'
import { runColdStart } from './lib/phase-cold-start.mjs'
import { runGeneratorCheck } from './lib/phase-generators.mjs'
import { runLibrarySplit } from './lib/phase-library-split.mjs'
import { runLimit } from './lib/phase-limit.mjs'
import { runMemory } from './lib/phase-memory.mjs'
import { runPeers } from './lib/phase-peers.mjs'
import { runScale } from './lib/phase-scale.mjs'
import { runSession } from './lib/phase-session.mjs'
import { runThroughput } from './lib/phase-throughput.mjs'
import { runUi } from './lib/phase-ui.mjs'
import { runUpstream } from './lib/phase-upstream.mjs'
import { evaluateTargets, formatReport, withRatios, writeResults } from './lib/report.mjs'
import { bestRound, bestRoundPerRun } from './lib/rounds.mjs'
import { formatSummary, summariseProfile } from './profile-summary.mjs'

const log = (line) => process.stdout.write(`${line}\n`)
const load = () => loadavg().map((n) => Math.round(n * 100) / 100)

async function main() {
  const config = parseConfig(process.argv.slice(2))
  if (config === 'help') {
    log(USAGE)
    return
  }
  if ((config.generator === 'wrk' || config.phases.has('generators')) && !hasWrk()) {
    throw new Error(
      'wrk is not installed (Debian: apt-get install wrk); or run with --generator autocannon --only without generators'
    )
  }
  const startedAt = new Date()
  const loadStart = load()
  log(`bench: ${config.mode} run, phases ${[...config.phases].join(', ')}${config.profile ? ', profiling' : ''}`)

  if (config.build) buildBundle(log)
  else if (!existsSync(cliBundle)) throw new Error('out/main/cli.js is missing: run without --no-build')
  if (config.profile) {
    // Only this run's profiles: a summary of a stale one would mislead.
    for (const file of existsSync(profilesDir) ? readdirSync(profilesDir) : [])
      rmSync(join(profilesDir, file), { recursive: true, force: true })
  }

  // Databases (the scale one is ~200 MiB) live in a temporary folder removed at the end.
  const workDir = mkdtempSync(join(tmpdir(), 'ple-bench-'))
  const fixtures = buildFixtures()
  const phases = config.phases
  let baseline = null
  let limit = null
  let runs = []
  let librarySplit = null
  let coldStart = null
  let memory = null
  let ui = null
  let generators = null
  let upstream = null
  let session = null
  let peers = null
  try {
    if (phases.has('generators')) {
      log('generator check (bare Fastify and the limit, with each load generator)')
      generators = await runGeneratorCheck(config, fixtures, workDir, log)
    }
    if (phases.has('baseline')) {
      log('baseline (bare Fastify)')
      baseline = await runBaseline(config, log)
    }
    // The limit and the throughput runs, in rounds: each server's best round is kept.
    const limitRounds = []
    const runRounds = []
    for (let round = 1; round <= config.rounds; round++) {
      const of = config.rounds > 1 ? ` (round ${round} of ${config.rounds})` : ''
      // Every round over fresh databases: a reused one would carry the last round's rows (and
      // its request log's ids) into this one.
      const roundDir = join(workDir, `round-${round}`)
      mkdirSync(roundDir)
      if (phases.has('baseline')) {
        log(`limit (the least work a correct validate needs)${of}`)
        limitRounds.push(await runLimit(config, fixtures, roundDir, log))
      }
      if (phases.has('throughput')) {
        log(`throughput and latency${of}`)
        runRounds.push(...(await runThroughput(config, fixtures, roundDir, log)))
      }
    }
    limit = bestRound(limitRounds)
    runs = bestRoundPerRun(runRounds)
    if (runs.some((run) => run.name.startsWith('library-'))) {
      log('library service time, in process: where it goes')
      librarySplit = runLibrarySplit(log)
    }
    if (phases.has('session')) {
      log("a test suite's view: a plugin's CI session on one connection, against the limit's")
      session = await runSession(config, fixtures, workDir, log)
    }
    if (phases.has('peers')) {
      log('peers: validate against Prism and Mockoon CLI (installed into .tmp/bench-peers on demand)')
      peers = await runPeers(config, fixtures, workDir, log)
    }
    if (phases.has('upstream')) {
      log('forwarding: a validate through the proxy against the upstream directly')
      upstream = await runUpstream(config, fixtures, workDir, log)
    }
    if (phases.has('scale')) {
      log('scale')
      runs.push(await runScale(config, workDir, log))
    }
    if (phases.has('coldstart')) {
      log('cold start')
      coldStart = await runColdStart(config, workDir, log)
    }
    if (phases.has('memory')) {
      log('memory growth')
      memory = await runMemory(config, fixtures, workDir, log)
    }
    if (phases.has('ui')) {
      log('the UI at scale (Chromium)')
      ui = await runUi(config, fixtures, workDir, log)
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }

  runs = runs.map((run) => withRatios(run, baseline, limit))
  const result = {
    startedAt: startedAt.toISOString(),
    elapsedS: Math.round((Date.now() - startedAt.getTime()) / 1000),
    mode: config.mode,
    provisional: 'Figures from a shared machine are noisy: compare runs made on the same idle machine.',
    config: {
      generator: config.generator,
      connections: config.connections,
      durationS: config.durationS,
      warmupS: config.warmupS,
      coldStartRuns: config.coldStartRuns,
      memoryCheckpoints: config.memoryCheckpoints,
      scale: config.scale
    },
    machine: {
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? null,
      loadStart,
      loadEnd: load()
    },
    baseline,
    limit,
    generators,
    runs,
    librarySplit,
    coldStart,
    memory,
    ui,
    upstream,
    session,
    peers,
    targets: evaluateTargets({ limit, runs, coldStart, memory, ui, peers }),
    profiles: null
  }
  if (config.profile) {
    // Each run's profile, cut to the load it measured (a server writes its profile as it exits).
    // Each run's profile twice: the whole load, then its one-connection part alone (a lone call's costs).
    result.profiles = [baseline, limit, ...runs]
      .filter((run) => run?.profile && existsSync(run.profile.file))
      .flatMap(({ name, profile: { single, ...whole } }) => [
        { run: name, ...summariseProfile(whole.file, { top: 15, ...whole }) },
        ...(single ? [{ run: `${name}, one connection`, ...summariseProfile(whole.file, { top: 15, ...single }) }] : [])
      ])
    for (const summary of result.profiles) log(`\n${summary.run}: ${formatSummary(summary)}`)
  }
  log(formatReport(result))
  log(`wrote ${writeResults(result)} (${result.elapsedS} s)`)
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error.stack ?? error.message}\n`)
  process.exitCode = 1
})
