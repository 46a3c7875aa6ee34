import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// @ts-expect-error -- bench/ is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedSummary from '../../bench/profile-summary.mjs'
import { makeTempDir } from '../support/temp-dir'

interface Row {
  name: string
  ms: number
  pct: number
}
interface ProfileSummary {
  file: string
  window: { fromMs: number; toMs: number } | null
  totalMs: number
  samples: number
  requests: number | null
  cpuUsPerRequest: number | null
  topSelf: Row[]
  byModule: Row[]
  topEmulatorInclusive: Row[]
}
const { summariseProfile, formatSummary } = untypedSummary as {
  summariseProfile: (
    file: string,
    options?: { top?: number; fromMs?: number; toMs?: number; requests?: number }
  ) => ProfileSummary
  formatSummary: (summary: ProfileSummary) => string
}

// The summariser shortens file URLs under the project root (bench/lib/paths.mjs) to relative paths.
const projectRoot = fileURLToPath(new URL('../../', import.meta.url))
const projectUrl = (path: string) => pathToFileURL(join(projectRoot, path)).href

interface ProfileNode {
  id: number
  callFrame: { functionName: string; scriptId: string; url: string; lineNumber: number; columnNumber: number }
  hitCount: number
  children?: number[]
}
const node = (
  id: number,
  functionName: string,
  url: string,
  lineNumber: number,
  children: number[] = []
): ProfileNode => ({
  id,
  callFrame: { functionName, scriptId: String(id), url, lineNumber, columnNumber: 0 },
  hitCount: 0,
  ...(children.length ? { children } : {})
})

const APP = projectUrl('out/main/chunks/app.js')
// A tiny .cpuprofile in V8's format. The call tree:
//   (root) -> handle (out/main) -> walk -> walk (recursion, same frame) -> query (better-sqlite3)
//                               -> (anonymous) (out/main) -> JSONStringify (native, no URL)
//          -> (idle), (garbage collector), serve (@fastify/static), parse (node:internal)
const NODES = [
  node(1, '(root)', '', -1, [2, 6, 7, 8, 11]),
  node(2, 'handle', APP, 9, [3, 9]),
  node(3, 'walk', APP, 19, [4]),
  node(4, 'walk', APP, 19, [5]),
  node(5, 'query', projectUrl('node_modules/better-sqlite3/lib/methods/wrappers.js'), 4),
  node(6, '(idle)', '', -1),
  node(7, '(garbage collector)', '', -1),
  node(8, 'serve', projectUrl('node_modules/@fastify/static/index.js'), 10),
  node(9, '', APP, 99, [10]),
  node(10, 'JSONStringify', '', -1),
  node(11, 'parse', 'node:internal/json', 3)
]
// Each sample with the microseconds since the previous one (charged to it), and where the
// sample falls, in ms since the profile started:
const SAMPLES: [node: number, deltaUs: number][] = [
  [5, 1000], //  1 ms  query (under walk, walk, handle)
  [4, 2000], //  3 ms  inner walk
  [3, 3000], //  6 ms  outer walk
  [6, 4000], // 10 ms  (idle): not CPU time
  [7, 500], // 10.5 ms (garbage collector)
  [9, 1500], // 12 ms  (anonymous) in out/main
  [10, 250], // 12.25 ms JSONStringify under (anonymous)
  [8, 750], // 13 ms  @fastify/static
  [11, 1000] // 14 ms  node internals
]

const SELF = {
  walk: 'walk  out/main/chunks/app.js:20',
  anonymous: '(anonymous)  out/main/chunks/app.js:100',
  query: 'query  node_modules/better-sqlite3/lib/methods/wrappers.js:5',
  parse: 'parse  node:internal/json:4',
  serve: 'serve  node_modules/@fastify/static/index.js:11',
  gc: '(garbage collector)',
  native: 'JSONStringify',
  handle: 'handle  out/main/chunks/app.js:10'
}

describe('profile summary', () => {
  let dir: ReturnType<typeof makeTempDir>
  let file: string

  beforeAll(() => {
    dir = makeTempDir('bench-profile')
    file = join(dir.path, 'validate.cpuprofile')
    const profile = {
      nodes: NODES,
      startTime: 1_000_000,
      endTime: 1_015_000,
      samples: SAMPLES.map(([id]) => id),
      timeDeltas: SAMPLES.map(([, us]) => us)
    }
    writeFileSync(file, JSON.stringify(profile))
  })
  afterAll(() => dir.remove())

  it('counts CPU samples and time, leaving out idle', () => {
    const summary = summariseProfile(file)
    expect(summary).toMatchObject({
      file,
      window: null,
      totalMs: 10,
      samples: 8,
      requests: null,
      cpuUsPerRequest: null
    })
  })

  it('charges each sample its time delta as self time, by function and location, biggest first', () => {
    expect(summariseProfile(file).topSelf).toEqual([
      { name: SELF.walk, ms: 5, pct: 50 },
      { name: SELF.anonymous, ms: 1.5, pct: 15 },
      { name: SELF.query, ms: 1, pct: 10 },
      { name: SELF.parse, ms: 1, pct: 10 },
      { name: SELF.serve, ms: 0.8, pct: 7.5 },
      { name: SELF.gc, ms: 0.5, pct: 5 },
      { name: SELF.native, ms: 0.3, pct: 2.5 }
    ])
  })

  it('keeps the top N functions', () => {
    expect(summariseProfile(file, { top: 2 }).topSelf.map((r) => r.name)).toEqual([SELF.walk, SELF.anonymous])
  })

  it('groups self time by module: the bundle, npm packages (scoped too), node internals, V8', () => {
    expect(summariseProfile(file).byModule).toEqual([
      { name: 'emulator (out/main)', ms: 6.5, pct: 65 },
      { name: 'npm:better-sqlite3', ms: 1, pct: 10 },
      { name: 'node internals', ms: 1, pct: 10 },
      { name: 'npm:@fastify/static', ms: 0.8, pct: 7.5 },
      { name: '(garbage collector)', ms: 0.5, pct: 5 },
      { name: '(native: V8 builtins, better-sqlite3 C++ calls)', ms: 0.3, pct: 2.5 }
    ])
  })

  it('counts inclusive time of the emulator functions only, once per sample under recursion', () => {
    // walk: 1 + 2 + 3 ms, not 2 + 4 + 3 as a count per stack frame would give.
    expect(summariseProfile(file).topEmulatorInclusive).toEqual([
      { name: SELF.handle, ms: 7.8, pct: 77.5 },
      { name: SELF.walk, ms: 6, pct: 60 },
      { name: SELF.anonymous, ms: 1.8, pct: 17.5 }
    ])
  })

  it('keeps only the samples in the --from/--to window, ends included, idle time still advancing the clock', () => {
    const summary = summariseProfile(file, { fromMs: 3, toMs: 12 })
    expect(summary).toMatchObject({ window: { fromMs: 3, toMs: 12 }, totalMs: 7, samples: 4 })
    expect(summary.topSelf.map((r) => [r.name, r.ms])).toEqual([
      [SELF.walk, 5],
      [SELF.anonymous, 1.5],
      [SELF.gc, 0.5]
    ])
    expect(summary.topEmulatorInclusive.map((r) => [r.name, r.ms])).toEqual([
      [SELF.handle, 6.5],
      [SELF.walk, 5],
      [SELF.anonymous, 1.5]
    ])
  })

  it('opens the window with --from alone or --to alone', () => {
    expect(summariseProfile(file, { fromMs: 12.5 })).toMatchObject({
      window: { fromMs: 12.5, toMs: Infinity },
      samples: 2,
      totalMs: 2
    })
    expect(summariseProfile(file, { toMs: 2 })).toMatchObject({
      window: { fromMs: 0, toMs: 2 },
      samples: 1,
      totalMs: 1
    })
    expect(summariseProfile(file, { fromMs: 100 })).toMatchObject({
      samples: 0,
      totalMs: 0,
      topSelf: [],
      byModule: [],
      topEmulatorInclusive: []
    })
  })

  it('turns CPU time into microseconds per request when given the request count', () => {
    expect(summariseProfile(file, { requests: 4 })).toMatchObject({ requests: 4, cpuUsPerRequest: 2500 })
    expect(summariseProfile(file, { fromMs: 3, toMs: 12, requests: 3 })).toMatchObject({
      requests: 3,
      cpuUsPerRequest: 2333
    })
  })

  it('prints the totals, the window, the cost per request and the three lists', () => {
    const text = formatSummary(summariseProfile(file, { fromMs: 3, toMs: 12, requests: 4 }))
    const lines = text.split('\n')
    expect(lines[0]).toBe(
      `${file}: 7 ms on CPU (idle excluded), 4 samples, ms 3-12 of the process, 4 requests: 1750 us of CPU per request`
    )
    expect(lines).toContain('  top self time (function):')
    expect(lines).toContain('  self time by module:')
    expect(lines).toContain('  emulator functions, inclusive time:')
    expect(lines).toContain(`     71.4%          5 ms  ${SELF.walk}`)
    const plain = formatSummary(summariseProfile(file)).split('\n')[0]
    expect(plain).toBe(`${file}: 10 ms on CPU (idle excluded), 8 samples`)
  })
})
