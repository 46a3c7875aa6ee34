// The targets, the table and bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

import { GENERATORS } from './config.mjs'
import { resultsDir } from './paths.mjs'

const ratio = (value, base) => (base ? Math.round((value / base) * 100) / 100 : null)

/** The runs whose work the limit server does a superset of: each is also read as a share of it. */
export const LICENSING_RUNS = ['validate', 'verify', 'activate', 'scale-validate']

/**
 * Adds each run's ratios to the bare-Fastify baseline and, for licensing runs, to the limit
 * (throughput, and latency: higher is slower).
 */
export function withRatios(run, baseline, limit = null) {
  const vsBaseline = {
    rpsVsBaseline: ratio(run.rps, baseline?.rps),
    p50VsBaseline: ratio(run.p50, baseline?.p50),
    p99VsBaseline: ratio(run.p99, baseline?.p99)
  }
  if (!LICENSING_RUNS.includes(run.name)) return { ...run, ...vsBaseline }
  return { ...run, ...vsBaseline, rpsVsLimit: ratio(run.rps, limit?.rps), p99VsLimit: ratio(run.p99, limit?.p99) }
}

/** The targets, as the bench judges them: shares of the limit, service times, start and memory. */
export const TARGET_SHARES = { validate: 0.95, verify: 1.0, activate: 0.6 }
export const VALIDATE_P99_VS_LIMIT = 1.3
/** One call at a time (1 connection): a licensing call's mean time, at most this many times the limit's. */
export const ONE_CONNECTION_VS_LIMIT = 1.3
/** validate's server CPU a request at 50 connections, at most this many times the limit's. */
export const VALIDATE_CPU_VS_LIMIT = 1.15
/** validate's throughput against each peer mock (bench/lib/phase-peers.mjs), while signing every answer. */
export const PEER_SHARE = 3
export const LIBRARY_SERVICE_P50_MS = 12
export const COLD_START_MEDIAN_MS = 500
export const UI_LONGEST_TASK_MS = 100
export const UI_LIBRARY_RENDER_MS = 500

/**
 * Each target met / missed / not run.
 * @returns {{ target: string, value: string, status: 'met' | 'missed' | 'not run' }[]}
 */
export function evaluateTargets({ limit, runs, coldStart, memory, ui = null, peers = null }) {
  const byName = new Map(runs.map((r) => [r.name, r]))
  const targets = []
  const add = (target, ok, value) =>
    targets.push({ target, value, status: ok === null ? 'not run' : ok ? 'met' : 'missed' })
  // A run with no 2xx answer has no latency figures (autocannon reports 0): that is a miss.
  const answered = (run) => run && run.requests - run.non2xx > 0
  // autocannon counts error answers in req/s too: a figure is only worth judging when every
  // request got the answer the bench expected.
  const clean = (run) => run.non2xx === 0 && (run.errors ?? 0) === 0
  const failures = (run) => (clean(run) ? '' : `; ${run.non2xx + (run.errors ?? 0)} failed answers`)
  const limitOk = limit && limit.rps > 0 && answered(limit) && clean(limit)
  for (const [name, share] of Object.entries(TARGET_SHARES)) {
    const run = byName.get(name)
    const value = run && limitOk ? run.rps / limit.rps : null
    add(
      `${name}: throughput >= ${share} x limit`,
      value === null ? null : clean(run) && value >= share,
      value === null ? '-' : `${value.toFixed(2)} x (${run.rps} vs ${limit.rps} req/s)${failures(run)}`
    )
    if (name !== 'validate') continue
    add(
      `validate: p99 <= ${VALIDATE_P99_VS_LIMIT} x limit's p99 at 50 connections`,
      run && limitOk ? answered(run) && clean(run) && run.p99 <= VALIDATE_P99_VS_LIMIT * limit.p99 : null,
      !run || !limitOk
        ? '-'
        : answered(run)
          ? `${run.p99} ms vs ${limit.p99} ms${failures(run)}`
          : 'no 2xx answer in the run'
    )
  }
  // One call at a time: what a plugin's test suite and a CI job wait for (bench/README.md).
  const limitSingle = limitOk && limit.single?.perCallMs && clean(limit.single) ? limit.single.perCallMs : null
  for (const name of Object.keys(TARGET_SHARES)) {
    const single = byName.get(name)?.single
    const value = single?.perCallMs && limitSingle ? single.perCallMs / limitSingle : null
    add(
      `${name}: one call at a time (1 connection), mean time a call <= ${ONE_CONNECTION_VS_LIMIT} x limit's`,
      value === null ? null : clean(single) && value <= ONE_CONNECTION_VS_LIMIT,
      value === null ? '-' : `${value.toFixed(2)} x (${single.perCallMs} vs ${limitSingle} ms)${failures(single)}`
    )
  }
  const validate = byName.get('validate')
  const cpu = validate?.server?.cpuUsPerRequest
  const limitCpu = limitOk ? limit.server?.cpuUsPerRequest : null
  add(
    `validate: server CPU a request (50 connections) <= ${VALIDATE_CPU_VS_LIMIT} x limit's`,
    cpu && limitCpu ? clean(validate) && cpu / limitCpu <= VALIDATE_CPU_VS_LIMIT : null,
    cpu && limitCpu ? `${(cpu / limitCpu).toFixed(2)} x (${cpu} vs ${limitCpu} us)${failures(validate)}` : '-'
  )
  for (const peer of ['prism', 'mockoon']) {
    const figures = peers?.[peer]
    const measured = figures && !figures.skipped && peers.emulator
    const share = measured && figures.rps > 0 ? peers.emulator.rps / figures.rps : null
    add(
      `validate: throughput >= ${PEER_SHARE} x ${peer === 'prism' ? 'Prism (mock of /openapi.json)' : 'Mockoon CLI (static answer)'}`,
      measured ? share !== null && clean(figures) && clean(peers.emulator) && share >= PEER_SHARE : null,
      measured
        ? `${share === null ? '-' : share.toFixed(2)} x (${peers.emulator.rps} vs ${figures.rps} req/s)${failures(figures)}`
        : (figures?.skipped ?? '-')
    )
  }
  const counted = runs.filter((run) => run.inspector)
  const lost = counted.filter((run) => !run.inspector.complete)
  add(
    'every request recorded by the inspector',
    counted.length ? lost.length === 0 : null,
    counted.length
      ? lost.length
        ? lost.map((run) => `${run.name}: ${run.inspector.recorded} recorded of ${run.inspector.answered}`).join('; ')
        : `${counted.reduce((n, run) => n + run.inspector.recorded, 0).toLocaleString('en-US')} recorded in ${counted.length} runs`
      : '-'
  )
  // The service time (1 connection) is what a user opening a library sees; at 50 connections a
  // single-threaded server queues each request behind the other 49.
  const library = byName.get('library-1000')
  add(
    `library, 1,000 items: p50 <= ${LIBRARY_SERVICE_P50_MS} ms at 1 connection (service time)`,
    library?.single
      ? answered(library.single) && clean(library.single) && library.single.p50 <= LIBRARY_SERVICE_P50_MS
      : null,
    library?.single
      ? answered(library.single)
        ? `${library.single.p50} ms (mean ${library.single.mean} ms)${failures(library.single)}`
        : 'no 2xx answer in the run'
      : '-'
  )
  add(
    `cold start (median) <= ${COLD_START_MEDIAN_MS} ms`,
    coldStart ? coldStart.medianMs <= COLD_START_MEDIAN_MS : null,
    coldStart ? `${coldStart.medianMs} ms (Node ${coldStart.judgedOn.join(', ')})` : '-'
  )
  // RSS after failed answers says nothing about the emulator's memory under its real work.
  const memoryClean = memory
    ? memory.checkpoints.every((c) => (c.unexpected ?? 0) === 0 && (c.errors ?? 0) === 0)
    : false
  add(
    'no memory growth',
    memory ? memoryClean && memory.growthPct <= memory.tolerancePct : null,
    memory
      ? `${memory.checkpoints[0].rssMiB} -> ${memory.checkpoints.at(-1).rssMiB} MiB (${memory.growthPct >= 0 ? '+' : ''}${memory.growthPct}%, ` +
          `${memory.firstRequests.toLocaleString('en-US')} -> ${memory.lastRequests.toLocaleString('en-US')} requests, tolerance ${memory.tolerancePct}%)` +
          (memoryClean ? '' : '; some answers failed')
      : '-'
  )
  const uiRan = ui && !ui.skipped
  add(
    `Requests screen, 5,000 logged + 500/s live while scrolling: longest main-thread task < ${UI_LONGEST_TASK_MS} ms`,
    uiRan ? ui.requests.longestTaskMs < UI_LONGEST_TASK_MS : null,
    uiRan
      ? `${ui.requests.longestTaskMs} ms (${ui.requests.longTasks} long tasks; frames p95 ${ui.requests.frame.p95Ms} ms, max ${ui.requests.frame.maxMs} ms)`
      : (ui?.skipped ?? '-')
  )
  add(
    `library viewer, 1,000 items drawn < ${UI_LIBRARY_RENDER_MS} ms`,
    uiRan ? ui.library.renderMs < UI_LIBRARY_RENDER_MS : null,
    uiRan ? `${ui.library.renderMs} ms` : (ui?.skipped ?? '-')
  )
  return targets
}

function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)))
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ')
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n')
}

/** A share of the machine as a percentage ("generator CPU": what the load generator took from the servers). */
const percent = (share) => (share === null || share === undefined ? '-' : `${Math.round(share * 1000) / 10}%`)

/** The generator check: each server's req/s with each generator, and how far they differ. */
export function formatGeneratorCheck(check) {
  const rows = check.servers.map((server) => [
    server.name,
    ...GENERATORS.flatMap((g) => [server[g].rps, server[g].p99, percent(server[g].generator?.machineShare)]),
    server.rpsDifference === null
      ? '-'
      : `${server.rpsDifference >= 0 ? '+' : ''}${Math.round(server.rpsDifference * 1000) / 10}%`
  ])
  const header = [
    'generator check',
    ...GENERATORS.flatMap((g) => [`${g} req/s`, `${g} p99 ms`, `${g} CPU`]),
    `${GENERATORS[1]} vs ${GENERATORS[0]}`
  ]
  return table(header, rows)
}

const fmt = (value) => (value === null || value === undefined ? '-' : String(value))

const THREAD_COLUMNS = [
  ['main', 'main thread'],
  ['requestLog', 'request log'],
  ['libuvPool', 'libuv pool'],
  ['v8Helpers', 'V8 helpers'],
  ['other', 'other threads']
]

/**
 * The server CPU a request, by thread (bench/lib/process-cpu.mjs), at the run's connections and at
 * one: what the main thread pays beside what the request log's worker, libuv's pool (signatures a
 * busy emulator makes off the main thread) and V8's collector helpers add. A kind of thread no run
 * used is left out (Node 20 names neither the pool nor the helpers: both are "other threads").
 */
function formatCpuByThread(runs, connections) {
  const measured = runs.filter((r) => r.server?.byThread)
  if (measured.length === 0) return null
  const columns = THREAD_COLUMNS.filter(([kind]) =>
    measured.some((r) => r.server.byThread[kind] > 0 || (r.single?.cpuByThread?.[kind] ?? 0) > 0)
  )
  const labels = columns.map(([, label]) => label)
  const byKind = (byThread) => columns.map(([kind]) => fmt(byThread?.[kind]))
  return [
    `server CPU us a request by thread, at ${connections} connections | at 1 connection:`,
    table(
      ['run', 'all', ...labels, '| all', ...labels],
      measured.map((r) => [
        r.label,
        fmt(r.server.cpuUsPerRequest),
        ...byKind(r.server.byThread),
        `| ${fmt(r.single?.cpuUsPerRequest)}`,
        ...byKind(r.single?.cpuByThread)
      ])
    )
  ].join('\n')
}

/** The console report. */
export function formatReport(result) {
  const { baseline, limit, runs, coldStart, memory, targets } = result
  const rows = [baseline, limit, ...runs]
    .filter(Boolean)
    .map((r) => [
      r.label,
      r.rps,
      r === baseline ? '1.00' : fmt(r.rpsVsBaseline ?? ratio(r.rps, baseline?.rps)),
      r === limit ? '1.00' : fmt(r.rpsVsLimit),
      r.p50,
      r.p99,
      r === baseline ? '1.00' : fmt(r.p99VsBaseline ?? ratio(r.p99, baseline?.p99)),
      r === limit ? '1.00' : fmt(r.p99VsLimit),
      r.single ? `${fmt(r.single.perCallMs)} / ${fmt(r.single.cpuUsPerRequest)}` : '-',
      r.non2xx + r.errors,
      fmt(r.rss?.kernelPeakMiB ?? r.rss?.maxSampledMiB),
      fmt(r.server?.cpuUsPerRequest),
      percent(r.generator?.machineShare)
    ])
  const out = [
    '',
    `Plugin License Emulator bench (${result.mode}, ${result.config.connections} connections, ${result.config.durationS} s per run after ${result.config.warmupS} s warm-up, generator ${result.config.generator ?? '-'})`,
    `node ${result.machine.node}, ${result.machine.cpus} CPUs, load average ${result.machine.loadStart.join(' ')} at start, ${result.machine.loadEnd.join(' ')} at end`,
    '',
    table(
      [
        'run',
        'req/s',
        'x base',
        'x limit',
        'p50 ms',
        'p99 ms',
        'p99 x base',
        'p99 x limit',
        '1 conn: ms a call / CPU us',
        'errors',
        'peak RSS MiB',
        'server CPU us/req',
        'generator CPU'
      ],
      rows
    )
  ]
  const split = formatCpuByThread([baseline, limit, ...runs].filter(Boolean), result.config.connections)
  if (split) out.push('', split)
  if (result.generators) out.push('', formatGeneratorCheck(result.generators))
  const libraries = runs.filter((r) => r.bytesPerItem)
  if (libraries.length) out.push('')
  for (const run of libraries) {
    const split = result.librarySplit?.[run.name]
    out.push(
      `${run.label}: ${run.bytes.toLocaleString('en-US')} bytes, ${run.bytesPerItem.toLocaleString('en-US')} per item` +
        (split
          ? `; in process ${split.medianMs.toFixed(2)} ms = view ${split.viewMs.toFixed(2)} + serialisation ${split.serialiseMs.toFixed(2)} ms` +
            ` (the customer's rows kept; after a write, SQLite ${split.sqliteMs.toFixed(2)} ms more)`
          : '')
    )
  }
  if (coldStart)
    out.push(
      '',
      'cold start to first health answer, each Node with an empty compile cache at its first run:',
      ...coldStart.byNode.map(
        (entry) =>
          `  Node ${entry.node}: median ${entry.medianMs} ms, first ${entry.firstMs} ms (runs: ${entry.runsMs.join(', ')} ms)`
      )
    )
  if (result.session) {
    const { session } = result
    out.push(
      '',
      `a plugin's CI session (${session.calls} calls on one connection: verify, activate, ${session.calls - 4} validates, deactivate, the library): ` +
        `emulator ${session.emulator.medianMs} ms, limit ${session.limit.medianMs} ms, ${session.ratio} x the limit's wall time (medians of ${session.sessions})` +
        (session.emulator.failures + session.limit.failures
          ? `; ${session.emulator.failures + session.limit.failures} failed answers`
          : '')
    )
  }
  if (result.peers?.emulator) {
    const { peers } = result
    const peerLine = (name, figures) =>
      figures.skipped
        ? `${name} not measured (${figures.skipped})`
        : `${name} ${figures.rps} req/s, p99 ${figures.p99} ms, ${fmt(figures.server?.cpuUsPerRequest)} us CPU a request`
    out.push(
      '',
      `peers, validate at ${result.config.connections} connections: emulator ${peers.emulator.rps} req/s (signing every answer), ` +
        `p99 ${peers.emulator.p99} ms, ${fmt(peers.emulator.server?.cpuUsPerRequest)} us CPU a request; ` +
        `${peerLine('Prism (mock of /openapi.json)', peers.prism)}; ${peerLine('Mockoon CLI (static answer)', peers.mockoon)}`
    )
  }
  if (memory) {
    out.push(
      '',
      `RSS under validate load: ${memory.checkpoints.map((c) => `${c.requests.toLocaleString('en-US')} req ${c.rssMiB} MiB`).join(' | ')}; peak ${memory.peakMiB} MiB`
    )
  }
  out.push(
    '',
    table(
      ['target', 'value', 'status'],
      targets.map((t) => [t.target, t.value, t.status.toUpperCase()])
    ),
    ''
  )
  return out.join('\n')
}

/** Writes bench/results/latest.json (ignored by git: results are per machine). */
export function writeResults(result) {
  mkdirSync(resultsDir, { recursive: true })
  const file = join(resultsDir, 'latest.json')
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`)
  return file
}
