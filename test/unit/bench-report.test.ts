import { describe, expect, it } from 'vitest'

// @ts-expect-error -- bench/ is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedColdStart from '../../bench/lib/phase-cold-start.mjs'
// @ts-expect-error -- as above.
import * as untypedReport from '../../bench/lib/report.mjs'

// The shapes bench/lib/load.mjs, phase-*.mjs and run.mjs hand to the report, as far as it reads them.
interface Single {
  rps: number
  p50: number
  p99: number
  mean: number
  perCallMs?: number | null
  cpuUsPerRequest?: number | null
  cpuByThread?: Record<string, number> | null
  requests: number
  non2xx: number
  errors: number
}
interface Run {
  name: string
  label: string
  rps: number
  p50: number
  p99: number
  requests: number
  non2xx: number
  errors: number
  single?: Single
  rss?: { maxSampledMiB: number | null; kernelPeakMiB: number | null } | null
  rpsVsBaseline?: number | null
  p50VsBaseline?: number | null
  p99VsBaseline?: number | null
  rpsVsLimit?: number | null
  p99VsLimit?: number | null
  inspector?: { recorded: number; answered: number; complete: boolean }
  generator?: { name: string; cpuS: number | null; machineShare: number | null }
  server?: { cpuS: number; cpuUsPerRequest: number | null; byThread?: Record<string, number> | null } | null
}
type GeneratorFigures = {
  rps: number
  p50: number
  p99: number
  generator: { name: string; cpuS: number | null; machineShare: number | null }
}
interface GeneratorCheckRow {
  name: string
  wrk: GeneratorFigures
  autocannon: GeneratorFigures
  rpsDifference: number | null
}
interface NodeColdStart {
  node: string
  lts: boolean
  runsMs: number[]
  medianMs: number
  firstMs: number
}
interface ColdStart {
  medianMs: number
  judgedOn: string[]
  byNode: NodeColdStart[]
}
const { coldStartOf, summariseColdStarts } = untypedColdStart as {
  coldStartOf: (node: string, runsMs: number[]) => NodeColdStart
  summariseColdStarts: (byNode: NodeColdStart[]) => ColdStart
}
const coldStartOn = (nodes: { node: string; runsMs: number[] }[]): ColdStart =>
  summariseColdStarts(nodes.map(({ node, runsMs }) => coldStartOf(node, runsMs)))
interface Memory {
  checkpoints: { requests: number; rssMiB: number; unexpected?: number; errors?: number }[]
  firstRequests: number
  lastRequests: number
  growthPct: number
  tolerancePct: number
  peakMiB: number
}
interface Target {
  target: string
  value: string
  status: 'met' | 'missed' | 'not run'
}
interface PeerFigures {
  rps: number
  p99: number
  requests: number
  non2xx: number
  errors: number
}
interface Inputs {
  baseline: Run | null
  limit: Run | null
  runs: Run[]
  coldStart: ColdStart | null
  memory: Memory | null
  ui?: Ui | null
  peers?: {
    emulator: PeerFigures
    prism: PeerFigures | { skipped: string }
    mockoon: PeerFigures | { skipped: string }
  } | null
}
type Ui =
  | { skipped: string }
  | {
      requests: { longestTaskMs: number; longTasks: number; frame: { p95Ms: number; maxMs: number } }
      library: { items: number; renderMs: number }
    }

const { evaluateTargets, formatReport, withRatios } = untypedReport as {
  evaluateTargets: (inputs: Inputs) => Target[]
  formatReport: (
    result: Inputs & {
      targets: Target[]
      mode: string
      config: { connections: number; durationS: number; warmupS: number; generator?: string }
      generators?: { servers: GeneratorCheckRow[] } | null
      machine: { node: string; cpus: number; loadStart: number[]; loadEnd: number[] }
    }
  ) => string
  withRatios: (run: Run, baseline: Run | null, limit?: Run | null) => Run
}

const TARGETS = {
  validateThroughput: 'validate: throughput >= 0.95 x limit',
  validateP99: "validate: p99 <= 1.3 x limit's p99 at 50 connections",
  verifyThroughput: 'verify: throughput >= 1 x limit',
  activateThroughput: 'activate: throughput >= 0.6 x limit',
  validateOne: "validate: one call at a time (1 connection), mean time a call <= 1.3 x limit's",
  verifyOne: "verify: one call at a time (1 connection), mean time a call <= 1.3 x limit's",
  activateOne: "activate: one call at a time (1 connection), mean time a call <= 1.3 x limit's",
  validateCpu: "validate: server CPU a request (50 connections) <= 1.15 x limit's",
  prism: 'validate: throughput >= 3 x Prism (mock of /openapi.json)',
  mockoon: 'validate: throughput >= 3 x Mockoon CLI (static answer)',
  inspector: 'every request recorded by the inspector',
  library1: 'library, 1,000 items: p50 <= 12 ms at 1 connection (service time)',
  coldStart: 'cold start (median) <= 500 ms',
  memory: 'no memory growth',
  uiLongestTask: 'Requests screen, 5,000 logged + 500/s live while scrolling: longest main-thread task < 100 ms',
  uiLibrary: 'library viewer, 1,000 items drawn < 500 ms'
} as const

function run(name: string, figures: Partial<Run> = {}): Run {
  return {
    name,
    label: `label of ${name}`,
    rps: 5000,
    p50: 4,
    p99: 8,
    requests: 50_000,
    non2xx: 0,
    errors: 0,
    ...figures
  }
}

const baseline = run('baseline', { label: 'baseline: bare Fastify, POST small JSON', rps: 40_000, p50: 1, p99: 2 })
/** One call at a time: `perCallMs` a call, as warmAndMeasure reports it. */
const single = (perCallMs: number, cpuUsPerRequest = 300): Single => ({
  rps: Math.round(1000 / perCallMs),
  p50: perCallMs,
  p99: perCallMs * 2,
  mean: perCallMs,
  perCallMs,
  cpuUsPerRequest,
  requests: 1000,
  non2xx: 0,
  errors: 0
})
const limit = run('limit', {
  label: 'limit: validate with the least work (hash, 2 reads, sign)',
  rps: 10_000,
  p50: 2,
  p99: 10,
  single: single(0.3, 250),
  server: { cpuS: 10, cpuUsPerRequest: 200 }
})
const peerFigures = (rps: number): PeerFigures => ({ rps, p99: 20, requests: rps * 10, non2xx: 0, errors: 0 })
const counted = (recorded: number, answered = recorded) => ({ recorded, answered, complete: recorded >= answered })

function memory(firstMiB: number, lastMiB: number, growthPct: number): Memory {
  return {
    checkpoints: [
      { requests: 20_000, rssMiB: firstMiB },
      { requests: 200_000, rssMiB: lastMiB }
    ],
    firstRequests: 20_000,
    lastRequests: 200_000,
    growthPct,
    tolerancePct: 10,
    peakMiB: Math.max(firstMiB, lastMiB)
  }
}

/** Every target met. */
function allGood(): Inputs {
  return {
    baseline,
    limit,
    runs: [
      run('validate', {
        rps: 9500,
        p99: 13,
        inspector: counted(80_000),
        single: single(0.39),
        server: { cpuS: 10, cpuUsPerRequest: 230 }
      }),
      run('verify', { rps: 10_000, p99: 7, inspector: counted(85_000), single: single(0.3) }),
      run('activate', { rps: 6000, p99: 20, inspector: counted(50_000), single: single(0.35) }),
      run('library-1000', {
        p50: 400,
        single: { rps: 100, p50: 9, p99: 12, mean: 9.5, requests: 300, non2xx: 0, errors: 0 }
      })
    ],
    coldStart: coldStartOn([{ node: 'v22.0.0', runsMs: [420, 400, 410] }]),
    memory: memory(140, 141.4, 1),
    ui: uiFigures(60, 300),
    peers: { emulator: peerFigures(9000), prism: peerFigures(3000), mockoon: peerFigures(2000) }
  }
}

function uiFigures(longestTaskMs: number, renderMs: number): Ui {
  return {
    requests: { longestTaskMs, longTasks: 1, frame: { p95Ms: 20, maxMs: longestTaskMs } },
    library: { items: 1000, renderMs }
  }
}

function statusOf(targets: Target[], name: string): Target['status'] | undefined {
  return targets.find((t) => t.target === name)?.status
}
const targetOf = (targets: Target[], name: string): Target | undefined => targets.find((t) => t.target === name)
const replacing = (name: string, figures: Partial<Run>): Inputs => {
  const inputs = allGood()
  return { ...inputs, runs: inputs.runs.map((r) => (r.name === name ? { ...r, ...figures } : r)) }
}

describe('bench report: targets', () => {
  it('lists the sixteen targets, in order, all met on good figures', () => {
    const targets = evaluateTargets(allGood())
    expect(targets.map((t) => t.target)).toEqual(Object.values(TARGETS))
    expect(targets.map((t) => t.status)).toEqual(Array(16).fill('met'))
  })

  it("judges one call at a time on the wall time a call, met up to 1.3 x the limit's", () => {
    const at = (perCallMs: number) =>
      targetOf(evaluateTargets(replacing('validate', { single: single(perCallMs) })), TARGETS.validateOne)
    expect(at(0.39)).toEqual({ target: TARGETS.validateOne, value: '1.30 x (0.39 vs 0.3 ms)', status: 'met' })
    expect(at(0.391)?.status).toBe('missed')
    expect(targetOf(evaluateTargets(replacing('verify', { single: undefined })), TARGETS.verifyOne)?.status).toBe(
      'not run'
    )
  })

  it("judges validate's server CPU a request against the limit's, met up to 1.15 x", () => {
    const at = (cpuUsPerRequest: number) =>
      targetOf(evaluateTargets(replacing('validate', { server: { cpuS: 10, cpuUsPerRequest } })), TARGETS.validateCpu)
    expect(at(230)).toEqual({ target: TARGETS.validateCpu, value: '1.15 x (230 vs 200 us)', status: 'met' })
    expect(at(231)?.status).toBe('missed')
  })

  it('judges validate against each peer at 3 x its throughput, and says why a peer was not measured', () => {
    const withPrism = (prism: PeerFigures | { skipped: string }) =>
      evaluateTargets({ ...allGood(), peers: { emulator: peerFigures(9000), prism, mockoon: peerFigures(100) } })
    expect(targetOf(withPrism(peerFigures(3000)), TARGETS.prism)).toEqual({
      target: TARGETS.prism,
      value: '3.00 x (9000 vs 3000 req/s)',
      status: 'met'
    })
    expect(statusOf(withPrism(peerFigures(3001)), TARGETS.prism)).toBe('missed')
    expect(statusOf(withPrism({ ...peerFigures(1000), non2xx: 5 }), TARGETS.prism)).toBe('missed')
    expect(targetOf(withPrism({ skipped: '@stoplight/prism-cli could not be installed' }), TARGETS.prism)).toEqual({
      target: TARGETS.prism,
      value: '@stoplight/prism-cli could not be installed',
      status: 'not run'
    })
  })

  it('judges the UI at scale: a long task of 100 ms or a library over 500 ms misses; no Chromium is "not run" with the reason', () => {
    const at = (longest: number, render: number) => evaluateTargets({ ...allGood(), ui: uiFigures(longest, render) })
    expect(statusOf(at(99.9, 499), TARGETS.uiLongestTask)).toBe('met')
    expect(statusOf(at(100, 499), TARGETS.uiLongestTask)).toBe('missed')
    expect(statusOf(at(50, 500), TARGETS.uiLibrary)).toBe('missed')
    const skipped = evaluateTargets({ ...allGood(), ui: { skipped: 'no Chromium found' } })
    expect(targetOf(skipped, TARGETS.uiLibrary)).toEqual({
      target: TARGETS.uiLibrary,
      value: 'no Chromium found',
      status: 'not run'
    })
  })

  it('judges licensing throughput as a share of the limit: met at exactly the share, missed just below', () => {
    const validateAt = (rps: number) =>
      statusOf(evaluateTargets(replacing('validate', { rps })), TARGETS.validateThroughput)
    expect(validateAt(9500)).toBe('met')
    expect(validateAt(9499)).toBe('missed')
    const activateAt = (rps: number) =>
      statusOf(evaluateTargets(replacing('activate', { rps })), TARGETS.activateThroughput)
    expect(activateAt(6000)).toBe('met')
    expect(activateAt(5999)).toBe('missed')
  })

  it('shows the share of the limit and both rates', () => {
    const targets = evaluateTargets(replacing('verify', { rps: 3000 }))
    expect(targetOf(targets, TARGETS.verifyThroughput)).toEqual({
      target: TARGETS.verifyThroughput,
      value: '0.30 x (3000 vs 10000 req/s)',
      status: 'missed'
    })
  })

  it("marks validate's p99 met up to 1.3 x the limit's and missed above", () => {
    const at = (p99: number) => targetOf(evaluateTargets(replacing('validate', { p99 })), TARGETS.validateP99)
    expect(at(13)).toMatchObject({ status: 'met', value: '13 ms vs 10 ms' })
    expect(at(13.01)).toMatchObject({ status: 'missed', value: '13.01 ms vs 10 ms' })
  })

  it('misses the latency target of a run with no 2xx answer, whose latencies autocannon leaves at 0', () => {
    const targets = evaluateTargets(replacing('validate', { requests: 800, non2xx: 800, p50: 0, p99: 0 }))
    expect(targetOf(targets, TARGETS.validateP99)).toMatchObject({
      status: 'missed',
      value: 'no 2xx answer in the run'
    })
  })

  it('judges the library service time on the 1-connection p50, and shows its mean', () => {
    const withSingle = (p50: number, requests = 100) =>
      targetOf(
        evaluateTargets(
          replacing('library-1000', { single: { rps: 40, p50, p99: 30, mean: 12.5, requests, non2xx: 0, errors: 0 } })
        ),
        TARGETS.library1
      )
    expect(withSingle(12)).toEqual({ target: TARGETS.library1, value: '12 ms (mean 12.5 ms)', status: 'met' })
    expect(withSingle(13)?.status).toBe('missed')
    expect(withSingle(3, 0)?.status).toBe('missed')
  })

  it('never marks a figure met when answers failed: autocannon counts them in req/s', () => {
    const targets = evaluateTargets(replacing('validate', { rps: 9000, p99: 2, non2xx: 90_000, requests: 90_000 }))
    expect(targetOf(targets, TARGETS.validateThroughput)).toEqual({
      target: TARGETS.validateThroughput,
      value: '0.90 x (9000 vs 10000 req/s); 90000 failed answers',
      status: 'missed'
    })
    expect(statusOf(evaluateTargets(replacing('verify', { rps: 9000, errors: 3 })), TARGETS.verifyThroughput)).toBe(
      'missed'
    )
    // A warm-up of refused requests has no service time to judge.
    const refusedWarmUp = replacing('library-1000', {
      single: { rps: 3000, p50: 0, p99: 0, mean: 0, requests: 3000, non2xx: 3000, errors: 0 }
    })
    expect(targetOf(evaluateTargets(refusedWarmUp), TARGETS.library1)).toEqual({
      target: TARGETS.library1,
      value: 'no 2xx answer in the run',
      status: 'missed'
    })
  })

  it('judges no share against a limit that answered nothing, or answered with errors', () => {
    for (const broken of [run('limit', { rps: 0 }), run('limit', { non2xx: 10 })]) {
      const targets = evaluateTargets({ ...allGood(), limit: broken })
      expect(targetOf(targets, TARGETS.validateThroughput)).toEqual({
        target: TARGETS.validateThroughput,
        value: '-',
        status: 'not run'
      })
      expect(statusOf(targets, TARGETS.validateP99)).toBe('not run')
    }
  })

  it('misses the inspector target when any run recorded fewer requests than were answered, naming it', () => {
    const target = targetOf(
      evaluateTargets(replacing('verify', { inspector: counted(84_990, 85_000) })),
      TARGETS.inspector
    )
    expect(target).toEqual({ target: TARGETS.inspector, value: 'verify: 84990 recorded of 85000', status: 'missed' })
    expect(targetOf(evaluateTargets(allGood()), TARGETS.inspector)?.value).toBe('215,000 recorded in 3 runs')
  })

  it('does not judge memory growth measured over failed answers', () => {
    const failed = memory(140, 141, 0.7)
    failed.checkpoints[1] = { ...failed.checkpoints[1]!, unexpected: 12, errors: 0 }
    const target = targetOf(evaluateTargets({ ...allGood(), memory: failed }), TARGETS.memory)
    expect(target?.status).toBe('missed')
    expect(target?.value).toMatch(/some answers failed$/)
  })

  it('ignores library-10: only the 1,000-item library has a target', () => {
    const targets = evaluateTargets({
      ...allGood(),
      runs: [
        run('library-10', {
          p50: 1,
          single: { rps: 900, p50: 1, p99: 2, mean: 1, requests: 900, non2xx: 0, errors: 0 }
        })
      ]
    })
    expect(statusOf(targets, TARGETS.library1)).toBe('not run')
  })

  it('marks the cold start met at 500 ms and missed above', () => {
    const at = (medianMs: number) =>
      targetOf(
        evaluateTargets({ ...allGood(), coldStart: coldStartOn([{ node: 'v24.0.0', runsMs: [medianMs] }]) }),
        TARGETS.coldStart
      )
    expect(at(500)).toMatchObject({ status: 'met', value: '500 ms (Node v24.0.0)' })
    expect(at(501)).toMatchObject({ status: 'missed', value: '501 ms (Node v24.0.0)' })
  })

  it("judges the cold start on the slowest Node LTS measured, and on the bench's own Node when none was", () => {
    const three = coldStartOn([
      { node: 'v20.20.2', runsMs: [800, 700, 720] },
      { node: 'v22.23.3', runsMs: [590, 470, 460] },
      { node: 'v24.18.1', runsMs: [540, 430, 440] }
    ])
    expect(three).toMatchObject({ medianMs: 470, judgedOn: ['v22.23.3', 'v24.18.1'] })
    expect(three.byNode.map((entry) => [entry.node, entry.firstMs, entry.medianMs])).toEqual([
      ['v20.20.2', 800, 720],
      ['v22.23.3', 590, 470],
      ['v24.18.1', 540, 440]
    ])
    expect(coldStartOn([{ node: 'v20.20.2', runsMs: [800, 700, 720] }])).toMatchObject({
      medianMs: 720,
      judgedOn: ['v20.20.2']
    })
  })

  it('marks memory met up to the tolerance, missed above it, and met when RSS shrank', () => {
    const at = (growthPct: number) =>
      targetOf(evaluateTargets({ ...allGood(), memory: memory(100, 100 + growthPct, growthPct) }), TARGETS.memory)
    expect(at(10)?.status).toBe('met')
    expect(at(10.1)?.status).toBe('missed')
    expect(at(-5)?.status).toBe('met')
  })

  it('shows the memory readings, the signed growth, the request counts and the tolerance', () => {
    const grew = targetOf(evaluateTargets({ ...allGood(), memory: memory(150.9, 166.2, 10.1) }), TARGETS.memory)
    expect(grew?.value).toBe('150.9 -> 166.2 MiB (+10.1%, 20,000 -> 200,000 requests, tolerance 10%)')
    const shrank = targetOf(evaluateTargets({ ...allGood(), memory: memory(150.9, 134.7, -10.7) }), TARGETS.memory)
    expect(shrank?.value).toBe('150.9 -> 134.7 MiB (-10.7%, 20,000 -> 200,000 requests, tolerance 10%)')
  })
})

describe('bench report: targets of phases that did not run', () => {
  it('marks every target not run, value "-", when nothing was measured', () => {
    const targets = evaluateTargets({ baseline: null, limit: null, runs: [], coldStart: null, memory: null })
    expect(targets).toHaveLength(16)
    for (const t of targets) expect(t).toMatchObject({ status: 'not run', value: '-' })
  })

  it('with only validate measured (--endpoints validate): judges validate, leaves the others not run', () => {
    const targets = evaluateTargets({
      baseline,
      limit,
      runs: [run('validate', { rps: 9500, p99: 16, inspector: counted(10) })],
      coldStart: null,
      memory: null
    })
    expect(targets.map((t) => [t.target, t.status])).toEqual([
      [TARGETS.validateThroughput, 'met'],
      [TARGETS.validateP99, 'missed'],
      [TARGETS.verifyThroughput, 'not run'],
      [TARGETS.activateThroughput, 'not run'],
      [TARGETS.validateOne, 'not run'],
      [TARGETS.verifyOne, 'not run'],
      [TARGETS.activateOne, 'not run'],
      [TARGETS.validateCpu, 'not run'],
      [TARGETS.prism, 'not run'],
      [TARGETS.mockoon, 'not run'],
      [TARGETS.inspector, 'met'],
      [TARGETS.library1, 'not run'],
      [TARGETS.coldStart, 'not run'],
      [TARGETS.memory, 'not run'],
      [TARGETS.uiLongestTask, 'not run'],
      [TARGETS.uiLibrary, 'not run']
    ])
  })

  it('leaves the service-time target not run when the library run has no 1-connection figures', () => {
    const targets = evaluateTargets({ ...allGood(), runs: [run('library-1000', { p50: 10 })] })
    expect(targetOf(targets, TARGETS.library1)).toMatchObject({ status: 'not run', value: '-' })
  })

  it('judges cold start and memory alone (--only coldstart,memory)', () => {
    const targets = evaluateTargets({
      baseline: null,
      limit: null,
      runs: [],
      coldStart: coldStartOn([{ node: 'v22.0.0', runsMs: [1500] }]),
      memory: memory(100, 102, 2)
    })
    expect(statusOf(targets, TARGETS.coldStart)).toBe('missed')
    expect(statusOf(targets, TARGETS.memory)).toBe('met')
    expect(targets.filter((t) => t.status === 'not run')).toHaveLength(14)
  })
})

describe('bench report: ratios', () => {
  it('adds each figure over the baseline, to two decimals', () => {
    expect(withRatios(run('library-10', { rps: 6000, p50: 5, p99: 8 }), baseline)).toMatchObject({
      rpsVsBaseline: 0.15,
      p50VsBaseline: 5,
      p99VsBaseline: 4
    })
    expect(withRatios(run('library-10', { rps: 3333 }), run('baseline', { rps: 10_000 })).rpsVsBaseline).toBe(0.33)
  })

  it('adds the ratios to the limit for licensing runs only', () => {
    expect(withRatios(run('validate', { rps: 6000, p99: 15 }), baseline, limit)).toMatchObject({
      rpsVsLimit: 0.6,
      p99VsLimit: 1.5
    })
    expect(withRatios(run('scale-validate', { rps: 5000 }), baseline, limit).rpsVsLimit).toBe(0.5)
    expect(withRatios(run('library-1000'), baseline, limit)).not.toHaveProperty('rpsVsLimit')
  })

  it('leaves the ratios null without a baseline or limit, or over a zero', () => {
    expect(withRatios(run('validate'), null, null)).toMatchObject({
      rpsVsBaseline: null,
      p50VsBaseline: null,
      p99VsBaseline: null,
      rpsVsLimit: null,
      p99VsLimit: null
    })
    expect(withRatios(run('validate'), run('baseline', { p50: 0 })).p50VsBaseline).toBeNull()
  })

  it('keeps the run figures', () => {
    const measured = run('verify', {
      rps: 1234,
      single: { rps: 1, p50: 1, p99: 1, mean: 1, requests: 1, non2xx: 0, errors: 0 }
    })
    expect(withRatios(measured, baseline, limit)).toMatchObject(measured)
  })
})

describe('bench report: console table', () => {
  const result = () => {
    const inputs = allGood()
    const runs = [
      ...inputs.runs,
      run('scale-validate', {
        label: 'POST /api/license/v1/validate (100,000 licenses)',
        rss: { maxSampledMiB: 180.2, kernelPeakMiB: 190.5 }
      })
    ].map((r) => withRatios(r, inputs.baseline, inputs.limit))
    return {
      ...inputs,
      runs,
      targets: evaluateTargets({ ...inputs, runs }),
      mode: 'quick',
      config: { connections: 50, durationS: 3, warmupS: 1, generator: 'wrk' },
      machine: { node: 'v20.19.0', cpus: 2, loadStart: [0.5, 0.4, 0.3], loadEnd: [1.9, 1.2, 0.8] }
    }
  }

  it('has a row for both baselines and for every run, by label', () => {
    const text = formatReport(result())
    for (const label of [
      'baseline: bare Fastify, POST small JSON',
      'limit: validate with the least work (hash, 2 reads, sign)',
      'label of validate',
      'label of verify',
      'label of library-1000',
      'POST /api/license/v1/validate (100,000 licenses)'
    ]) {
      expect(text).toContain(label)
    }
  })

  it('has every target with its status in capitals', () => {
    const inputs = result()
    const targets = [...inputs.targets]
    targets[1] = { ...targets[1]!, status: 'missed' }
    targets[6] = { ...targets[6]!, status: 'not run' }
    const lines = formatReport({ ...inputs, targets }).split('\n')
    for (const t of targets) {
      const line = lines.find((l) => l.startsWith(t.target))
      expect(line, t.target).toBeDefined()
      expect(line).toContain(t.value)
      expect(line?.trimEnd().endsWith(t.status.toUpperCase())).toBe(true)
    }
  })

  it('states the mode, the run sizes and the machine', () => {
    const text = formatReport(result())
    expect(text).toContain('(quick, 50 connections, 3 s per run after 1 s warm-up, generator wrk)')
    expect(text).toContain('node v20.19.0, 2 CPUs, load average 0.5 0.4 0.3 at start, 1.9 1.2 0.8 at end')
  })

  it('shows both ratios, service time, errors and peak RSS in a run row', () => {
    const inputs = result()
    const runs = [
      withRatios(
        run('validate', {
          label: 'VALIDATE ROW',
          rps: 6000,
          p99: 9,
          non2xx: 3,
          errors: 2,
          single: single(1.25, 420),
          rss: { maxSampledMiB: 99, kernelPeakMiB: 101.5 },
          server: { cpuS: 9.6, cpuUsPerRequest: 160 },
          generator: { name: 'wrk', cpuS: 2.5, machineShare: 0.1234 }
        }),
        baseline,
        limit
      )
    ]
    const row = formatReport({ ...inputs, runs })
      .split('\n')
      .find((l) => l.startsWith('VALIDATE ROW'))
    expect(row?.trim().split(/\s{2,}/)).toEqual([
      'VALIDATE ROW',
      '6000',
      '0.15',
      '0.6',
      '4',
      '9',
      '4.5',
      '0.9',
      '1.25 / 420',
      '5',
      '101.5',
      '160',
      '12.3%'
    ])
  })

  it("splits the server CPU a request by thread, at the run's connections and at one, leaving out the kinds no run used", () => {
    const inputs = result()
    const byThread = (main: number, requestLog: number, other: number) => ({
      main,
      requestLog,
      libuvPool: 0,
      v8Helpers: 0,
      other
    })
    const runs = [
      run('validate', {
        label: 'VALIDATE ROW',
        server: { cpuS: 15, cpuUsPerRequest: 382, byThread: byThread(226, 77, 79) },
        single: { ...single(0.45, 547), cpuByThread: byThread(350, 150, 47) }
      }),
      run('verify', { label: 'NO SPLIT ROW', server: { cpuS: 1, cpuUsPerRequest: 100 } })
    ]
    const lines = formatReport({ ...inputs, runs }).split('\n')
    const start = lines.indexOf('server CPU us a request by thread, at 50 connections | at 1 connection:')
    expect(start).toBeGreaterThan(0)
    const cellsOf = (line: string | undefined) => line?.trim().split(/\s{2,}/)
    expect(cellsOf(lines[start + 1])).toEqual([
      'run',
      'all',
      'main thread',
      'request log',
      'other threads',
      '| all',
      'main thread',
      'request log',
      'other threads'
    ])
    const rows = lines.slice(start + 3).filter((line) => line.startsWith('VALIDATE ROW') || line.startsWith('NO SPLIT'))
    expect(rows.map(cellsOf)).toEqual([['VALIDATE ROW', '382', '226', '77', '79', '| 547', '350', '150', '47']])
  })

  it('prints no split by thread when no run has one (no procfs)', () => {
    expect(formatReport(result())).not.toContain('by thread')
  })

  it('prints each baseline at 1.00 against itself and "-" for figures a run lacks', () => {
    const inputs = result()
    const lines = formatReport({ ...inputs, runs: [run('verify', { label: 'BARE ROW' })] }).split('\n')
    expect(
      lines
        .find((l) => l.startsWith('baseline:'))
        ?.trim()
        .split(/\s{2,}/)
    ).toEqual([
      'baseline: bare Fastify, POST small JSON',
      '40000',
      '1.00',
      '-',
      '1',
      '2',
      '1.00',
      '-',
      '-',
      '0',
      '-',
      '-',
      '-'
    ])
    expect(
      lines
        .find((l) => l.startsWith('limit:'))
        ?.trim()
        .split(/\s{2,}/)
    ).toEqual([
      'limit: validate with the least work (hash, 2 reads, sign)',
      '10000',
      '0.25',
      '1.00',
      '2',
      '10',
      '5',
      '1.00',
      '0.3 / 250',
      '0',
      '-',
      '200',
      '-'
    ])
    expect(
      lines
        .find((l) => l.startsWith('BARE ROW'))
        ?.trim()
        .split(/\s{2,}/)
    ).toEqual(['BARE ROW', '5000', '0.13', '-', '4', '8', '4', '-', '-', '0', '-', '-', '-'])
  })

  it('prints the generator check: each server with each generator, their CPU share and the difference', () => {
    const figures = (rps: number, share: number): GeneratorFigures => ({
      rps,
      p50: 1,
      p99: 3,
      generator: { name: 'x', cpuS: 1, machineShare: share }
    })
    const generators = {
      servers: [
        { name: 'baseline', wrk: figures(20_000, 0.129), autocannon: figures(17_000, 0.235), rpsDifference: -0.15 },
        { name: 'limit', wrk: figures(5000, 0.086), autocannon: figures(5050, 0.177), rpsDifference: 0.01 }
      ]
    }
    const lines = formatReport({ ...result(), generators }).split('\n')
    const row = (name: string) =>
      lines
        .find((l) => l.startsWith(`${name} `))
        ?.trim()
        .split(/\s{2,}/)
    expect(lines.some((l) => l.startsWith('generator check'))).toBe(true)
    expect(row('baseline')).toEqual(['baseline', '20000', '3', '12.9%', '17000', '3', '23.5%', '-15%'])
    expect(row('limit')).toEqual(['limit', '5000', '3', '8.6%', '5050', '3', '17.7%', '+1%'])
    expect(formatReport(result())).not.toContain('generator check')
  })

  it('prints the cold-start and memory lines only when those phases ran', () => {
    const full = formatReport(result())
    expect(full).toContain('cold start to first health answer, each Node with an empty compile cache at its first run:')
    expect(full).toContain('  Node v22.0.0: median 410 ms, first 420 ms (runs: 420, 400, 410 ms)')
    expect(full).toContain('RSS under validate load: 20,000 req 140 MiB | 200,000 req 141.4 MiB; peak 141.4 MiB')
    const without = formatReport({ ...result(), coldStart: null, memory: null })
    expect(without).not.toContain('cold start to first health answer')
    expect(without).not.toContain('RSS under validate load')
  })

  it('prints a table without a baseline row when the baseline did not run', () => {
    const inputs = result()
    const text = formatReport({
      ...inputs,
      baseline: null,
      limit: null,
      runs: [run('validate', { label: 'ONLY ROW' })]
    })
    expect(text).not.toContain('bare Fastify')
    expect(text).not.toContain('least work')
    expect(text).toContain('ONLY ROW')
  })
})

describe('bench report: library sizes and split', () => {
  it('prints bytes per item of each library run, with the in-process split where it was measured', () => {
    const inputs = allGood()
    const runs = [
      run('library-1000', { label: 'LIB 1000', bytes: 1_865_363, bytesPerItem: 1865 } as Partial<Run>),
      run('library-10', { label: 'LIB 10', bytes: 19_260, bytesPerItem: 1926 } as Partial<Run>)
    ]
    const librarySplit = {
      'library-1000': {
        medianMs: 14.96,
        bytes: 1_865_363,
        bytesPerItem: 1865,
        sqliteMs: 8.03,
        viewMs: 1.39,
        serialiseMs: 3.55
      }
    }
    const text = formatReport({
      ...inputs,
      runs,
      targets: [],
      mode: 'quick',
      config: { connections: 50, durationS: 3, warmupS: 1 },
      machine: { node: 'v20', cpus: 2, loadStart: [0], loadEnd: [0] },
      librarySplit
    } as Parameters<typeof formatReport>[0])
    expect(text).toContain(
      "LIB 1000: 1,865,363 bytes, 1,865 per item; in process 14.96 ms = view 1.39 + serialisation 3.55 ms (the customer's rows kept; after a write, SQLite 8.03 ms more)"
    )
    expect(text).toContain('LIB 10: 19,260 bytes, 1,926 per item\n')
  })
})

describe('bench UI phase: frame figures', () => {
  it('summarises frame times: median, 95th percentile, the longest and how many took over 50 ms', async () => {
    // @ts-expect-error -- bench/ is plain .mjs with no declarations
    const { summariseFrames } = (await import('../../bench/lib/phase-ui.mjs')) as {
      summariseFrames: (d: number[]) => Record<string, number | null>
    }
    const deltas = [...Array(90).fill(16.7), ...Array(8).fill(33.3), 60, 120]
    expect(summariseFrames(deltas)).toEqual({ frames: 100, p50Ms: 16.7, p95Ms: 33.3, maxMs: 120, over50Ms: 2 })
    expect(summariseFrames([])).toEqual({ frames: 0, p50Ms: null, p95Ms: null, maxMs: null, over50Ms: 0 })
  })
})
