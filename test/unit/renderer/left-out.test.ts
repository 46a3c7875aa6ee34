import { describe, expect, it } from 'vitest'

import { leftOutNote } from '../../../src/renderer/src/screens/recordings/left-out'

describe("a recording's Exchanges cell: what it does not hold", () => {
  it('adds nothing for a whole recording', () => {
    expect(leftOutNote({ refused: 0, lost: 0 })).toEqual({ suffix: '', title: undefined })
  })

  it('names exchanges refused for a secret, and lost to storage, each with why', () => {
    expect(leftOutNote({ refused: 2, lost: 0 }).suffix).toBe(' (+2 refused)')
    const lost = leftOutNote({ refused: 0, lost: 3 })
    expect(lost.suffix).toBe(' (+3 lost)')
    expect(lost.title).toContain('storage refused writes')
    const both = leftOutNote({ refused: 1, lost: 4 })
    expect(both.suffix).toBe(' (+1 refused, +4 lost)')
    expect(both.title).toContain("secret's shape")
    expect(both.title).toContain('4 lost')
  })
})
