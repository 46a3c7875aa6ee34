import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

import { lostExchangesFileFor } from '../../src/core/recordings/lost-exchanges-file'
import { makeTempDir } from '../support/temp-dir'

// The file beside the database that carries lost counts to the next start: whatever it holds, a
// start never fails on it (a hand-edited file holds no counts).
describe('the lost-exchanges file', () => {
  const dirs: { remove: () => void }[] = []
  afterEach(() => dirs.splice(0).forEach((dir) => dir.remove()))

  const fileWith = (text: string) => {
    const dir = makeTempDir('lost-file')
    dirs.push(dir)
    const file = lostExchangesFileFor(join(dir.path, 'emulator.db'))
    if (file === null) throw new Error('a file database has a lost-exchanges file')
    writeFileSync(file.path, text)
    return file
  }

  it.each(['null', '[]', '5', '"text"', '{"format":"other","lost":{"rec_A1":2}}', 'not json'])(
    'holds no counts when it reads %s',
    (text) => {
      expect(fileWith(text).read()).toEqual(new Map())
    }
  )

  it('does not make its folder again when it is gone (moved or deleted meanwhile)', () => {
    const dir = makeTempDir('lost-file-gone')
    const file = lostExchangesFileFor(join(dir.path, 'emulator.db'))
    dir.remove()
    expect(() => file?.write(new Map([['rec_A1', { lost: 1, refused: 0 }]]))).toThrow(/no longer exists/)
    expect(existsSync(dir.path)).toBe(false)
  })

  it('reads the counts it wrote, and only recording ids with positive counts', () => {
    const file = fileWith('')
    file.write(
      new Map([
        ['rec_A1', { lost: 3, refused: 0 }],
        ['rec_D4', { lost: 0, refused: 2 }]
      ])
    )
    expect(file.read()).toEqual(
      new Map([
        ['rec_A1', { lost: 3, refused: 0 }],
        ['rec_D4', { lost: 0, refused: 2 }]
      ])
    )
    writeFileSync(
      file.path,
      JSON.stringify({
        format: 'plugin-license-emulator/recordings-lost',
        lost: { rec_B2: 2, bad: 4, rec_C3: -1 },
        refused: { rec_B2: 1, rec_E5: 'x' }
      })
    )
    expect(file.read()).toEqual(new Map([['rec_B2', { lost: 2, refused: 1 }]]))
  })

  it('reads a file written before it carried refused counts', () => {
    const file = fileWith(JSON.stringify({ format: 'plugin-license-emulator/recordings-lost', lost: { rec_A1: 2 } }))
    expect(file.read()).toEqual(new Map([['rec_A1', { lost: 2, refused: 0 }]]))
  })
})
