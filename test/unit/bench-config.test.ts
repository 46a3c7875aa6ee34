import { describe, expect, it } from 'vitest'

// @ts-expect-error -- bench/ is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedConfig from '../../bench/lib/config.mjs'

/** What the bench's run.mjs reads of a parsed config (bench/lib/config.mjs, BenchConfig). */
interface BenchConfig {
  mode: 'quick' | 'full'
  profile: boolean
  build: boolean
  phases: Set<string>
  endpoints: Set<string> | null
  rounds: number
  generator: 'wrk' | 'autocannon'
  connections: number
  durationS: number
  warmupS: number
  coldStartRuns: number
  memoryCheckpoints: number[]
  scale: { customers: number; licenses: number; activationsPerLicense: number }
}

const { parseConfig, PHASES, USAGE } = untypedConfig as {
  parseConfig: (argv: string[]) => BenchConfig | 'help'
  PHASES: readonly string[]
  USAGE: string
}

function parse(...args: string[]): BenchConfig {
  const config = parseConfig(args)
  if (config === 'help') throw new Error('expected a config, got help')
  return config
}

describe('bench config: sizes', () => {
  it('makes a full run by default: 10 s runs after 3 s warm-up, 5 cold starts, 20,000 to 200,000 requests', () => {
    const config = parse()
    expect(config).toMatchObject({
      mode: 'full',
      profile: false,
      build: true,
      connections: 50,
      durationS: 10,
      warmupS: 3,
      coldStartRuns: 5,
      memoryCheckpoints: [20_000, 65_000, 110_000, 155_000, 200_000],
      scale: { customers: 10_000, licenses: 100_000, activationsPerLicense: 10 }
    })
  })

  it('makes --quick smaller: 3 s runs after 1 s, 3 cold starts, 40,000 to 80,000 requests, 10,000 licenses', () => {
    const config = parse('--quick')
    expect(config).toMatchObject({
      mode: 'quick',
      connections: 50,
      durationS: 3,
      warmupS: 1,
      coldStartRuns: 3,
      memoryCheckpoints: [40_000, 60_000, 80_000],
      scale: { customers: 1_000, licenses: 10_000, activationsPerLicense: 10 }
    })
  })

  it('keeps memory checkpoints rising, so the growth check compares the first with the last', () => {
    for (const config of [parse(), parse('--quick')]) {
      const checkpoints = config.memoryCheckpoints
      expect(checkpoints.length).toBeGreaterThanOrEqual(2)
      for (let i = 1; i < checkpoints.length; i++)
        expect(checkpoints[i]).toBeGreaterThan(checkpoints[i - 1] ?? Infinity)
    }
  })

  it('turns on profiling with --profile and skips the build with --no-build', () => {
    expect(parse('--profile', '--no-build')).toMatchObject({ profile: true, build: false })
    expect(parse('--quick', '--no-build')).toMatchObject({ mode: 'quick', profile: false, build: false })
  })
})

describe('bench config: --only', () => {
  it('runs every phase when --only is absent', () => {
    expect([...parse().phases].sort()).toEqual([
      'baseline',
      'coldstart',
      'generators',
      'memory',
      'peers',
      'scale',
      'session',
      'throughput',
      'ui',
      'upstream'
    ])
    expect([...parse().phases].sort()).toEqual([...PHASES].sort())
  })

  it('runs only the phases named, trimmed', () => {
    expect([...parse('--only', 'coldstart').phases]).toEqual(['coldstart'])
    expect([...parse('--only', ' memory , coldstart ').phases].sort()).toEqual(['coldstart', 'memory'])
    expect(parse('--only', 'memory').phases.has('baseline')).toBe(false)
  })

  it('adds the baseline to throughput or scale, whose ratios need it', () => {
    expect([...parse('--only', 'throughput').phases].sort()).toEqual(['baseline', 'throughput'])
    expect([...parse('--only', 'scale').phases].sort()).toEqual(['baseline', 'scale'])
    expect([...parse('--only=scale,coldstart').phases].sort()).toEqual(['baseline', 'coldstart', 'scale'])
  })

  it('refuses an unknown phase, naming it and the known ones', () => {
    expect(() => parse('--only', 'throughput,latency')).toThrow(
      'unknown phase "latency" (baseline, generators, throughput, session, peers, upstream, coldstart, memory, scale, ui)'
    )
    expect(() => parse('--only', 'Baseline')).toThrow(/unknown phase "Baseline"/)
    // A trailing comma leaves an empty name, which is not a phase either.
    expect(() => parse('--only', 'memory,')).toThrow(/unknown phase ""/)
  })

  it('measures with wrk unless --generator names autocannon, and refuses any other generator', () => {
    expect(parse().generator).toBe('wrk')
    expect(parse('--generator', 'autocannon').generator).toBe('autocannon')
    expect(() => parse('--generator', 'ab')).toThrow('unknown generator "ab" (wrk, autocannon)')
  })

  it('does not change the list of phases when it adds the baseline', () => {
    const before = [...PHASES]
    parse('--only', 'throughput')
    expect([...PHASES]).toEqual(before)
    expect(parse('--only', 'scale').phases).not.toBe(parse('--only', 'scale').phases)
  })
})

describe('bench config: --endpoints', () => {
  it('is null when absent: every throughput run', () => {
    expect(parse().endpoints).toBeNull()
    expect(parse('--quick', '--only', 'throughput').endpoints).toBeNull()
  })

  it('parses a comma-separated list into a set of trimmed names', () => {
    const endpoints = parse('--endpoints', 'validate, verify,library-1000').endpoints
    expect(endpoints).toBeInstanceOf(Set)
    expect([...(endpoints ?? [])]).toEqual(['validate', 'verify', 'library-1000'])
    expect(parse('--endpoints', 'validate,validate').endpoints?.size).toBe(1)
  })

  it('leaves checking the names to the throughput phase', () => {
    // runThroughput (bench/lib/phase-throughput.mjs) refuses unknown names against ENDPOINTS.
    expect([...(parse('--endpoints', 'no-such-run').endpoints ?? [])]).toEqual(['no-such-run'])
  })
})

describe('bench config: help and bad flags', () => {
  it('answers help for --help and -h, before checking anything else', () => {
    expect(parseConfig(['--help'])).toBe('help')
    expect(parseConfig(['-h'])).toBe('help')
    expect(parseConfig(['--quick', '--help'])).toBe('help')
    expect(parseConfig(['--help', '--only', 'no-such-phase'])).toBe('help')
  })

  it('documents every flag it accepts', () => {
    for (const flag of ['--quick', '--profile', '--no-build', '--only', '--endpoints', '--help'])
      expect(USAGE).toContain(flag)
    for (const phase of PHASES) expect(USAGE).toContain(phase)
  })

  it('refuses unknown flags and positional arguments', () => {
    expect(() => parseConfig(['--fast'])).toThrow()
    expect(() => parseConfig(['quick'])).toThrow()
    expect(() => parseConfig(['--only'])).toThrow()
  })

  it('measures in two rounds by default, one when quick or profiling, and takes --rounds', () => {
    expect(parse().rounds).toBe(2)
    expect(parse('--quick').rounds).toBe(1)
    expect(parse('--profile').rounds).toBe(1)
    expect(parse('--quick', '--rounds', '3').rounds).toBe(3)
    expect(() => parse('--rounds', '0')).toThrow(/whole number from 1 to 10/)
    expect(() => parse('--rounds', 'two')).toThrow(/whole number/)
  })
})
