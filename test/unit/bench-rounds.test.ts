import { describe, expect, it } from 'vitest'

// @ts-expect-error -- bench/ is plain .mjs with no declarations (tsconfig has no allowJs); typed narrowly below.
import * as untypedRounds from '../../bench/lib/rounds.mjs'

interface Inspector {
  recorded: number
  answered: number
  complete: boolean
}
interface Run {
  name: string
  rps: number
  single?: { perCallMs: number; cpuUsPerRequest: number }
  inspector?: Inspector
  rounds?: number[]
  singleRounds?: number[]
}

const { bestRound, bestRoundPerRun } = untypedRounds as {
  bestRound: (results: Run[]) => Run | null
  bestRoundPerRun: (results: Run[]) => Run[]
}

describe("bench rounds: each server's best round", () => {
  it("keeps the round with the most requests a second, and every round's figure", () => {
    expect(
      bestRound([
        { name: 'limit', rps: 5000 },
        { name: 'limit', rps: 6200 }
      ])
    ).toEqual({ name: 'limit', rps: 6200, rounds: [5000, 6200] })
    expect(bestRound([{ name: 'limit', rps: 5000 }])).toEqual({ name: 'limit', rps: 5000 })
    expect(bestRound([])).toBeNull()
  })

  it('takes the one-connection figures from the round with the shortest call, apart from the req/s', () => {
    const best = bestRound([
      { name: 'validate', rps: 3400, single: { perCallMs: 0.631, cpuUsPerRequest: 529 } },
      { name: 'validate', rps: 4100, single: { perCallMs: 0.799, cpuUsPerRequest: 619 } }
    ])
    expect(best).toEqual({
      name: 'validate',
      rps: 4100,
      single: { perCallMs: 0.631, cpuUsPerRequest: 529 },
      rounds: [3400, 4100],
      singleRounds: [0.631, 0.799]
    })
  })

  it('groups runs by name in the order they were first made', () => {
    const best = bestRoundPerRun([
      { name: 'validate', rps: 3000 },
      { name: 'verify', rps: 4000 },
      { name: 'validate', rps: 3500 },
      { name: 'verify', rps: 3900 }
    ])
    expect(best.map((run) => [run.name, run.rps])).toEqual([
      ['validate', 3500],
      ['verify', 4000]
    ])
  })

  it('keeps a lost inspector count from any round, so speed cannot hide a loss', () => {
    const lost = { recorded: 90, answered: 100, complete: false }
    const best = bestRound([
      { name: 'validate', rps: 3000, inspector: lost },
      { name: 'validate', rps: 3500, inspector: { recorded: 100, answered: 100, complete: true } }
    ])
    expect(best?.rps).toBe(3500)
    expect(best?.inspector).toEqual(lost)
  })
})
