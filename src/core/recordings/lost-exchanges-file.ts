import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'

import { writeFileAtomic } from '../files/atomic-file'

const FORMAT = 'plugin-license-emulator/recordings-lost'
const RECORDING_ID = /^rec_[A-Za-z0-9]{1,40}$/

/** What a recording left out and could not count in the database: lost to storage, refused for a secret's shape. */
export interface LeftOutCounts {
  lost: number
  refused: number
}

/**
 * Beside the database, how many exchanges each recording left out when the emulator stopped while
 * the database still refused writes (another program held its write lock, it was read-only): those
 * lost, and those refused for a secret's shape whose count was not written yet. The next start adds
 * them to the recordings' `lost` and `refused` counts, then removes the file. It holds recording ids
 * and counts only, never an exchange.
 */
export interface LostExchangesFile {
  readonly path: string
  /** The counts the file holds; empty when there is none (or it is not one of these files). */
  read(): Map<string, LeftOutCounts>
  /** Replaces the file with these counts; throws when the disk refuses it. */
  write(counts: ReadonlyMap<string, LeftOutCounts>): void
  remove(): void
}

/** The file of a database; null for an in-memory one, which no later start can open again. */
export function lostExchangesFileFor(databasePath: string): LostExchangesFile | null {
  if (databasePath === ':memory:' || databasePath === '') return null
  const path = `${databasePath}.recordings-lost.json`
  return {
    path,
    read() {
      const counts = new Map<string, LeftOutCounts>()
      let parsed: unknown
      try {
        parsed = JSON.parse(readFileSync(path, 'utf8'))
      } catch {
        return counts
      }
      // Anything but one of these files (a hand-edited `null`, a list) holds no counts.
      if (typeof parsed !== 'object' || parsed === null) return counts
      const { format, lost, refused } = parsed as { format?: unknown; lost?: unknown; refused?: unknown }
      if (format !== FORMAT) return counts
      // `refused` is newer than the file: one written without it holds lost counts only.
      for (const [kind, byRecording] of [
        ['lost', lost],
        ['refused', refused]
      ] as const) {
        if (typeof byRecording !== 'object' || byRecording === null) continue
        for (const [id, count] of Object.entries(byRecording)) {
          if (!RECORDING_ID.test(id) || !Number.isSafeInteger(count) || (count as number) <= 0) continue
          const found = counts.get(id) ?? { lost: 0, refused: 0 }
          found[kind] = count as number
          counts.set(id, found)
        }
      }
      return counts
    },
    write(counts) {
      // Beside the database, or nowhere: a folder moved or deleted meanwhile is not made again.
      if (!existsSync(dirname(path))) throw new Error(`${dirname(path)} no longer exists`)
      const of = (kind: keyof LeftOutCounts) =>
        Object.fromEntries([...counts].filter(([, n]) => n[kind] > 0).map(([id, n]) => [id, n[kind]]))
      writeFileAtomic(
        path,
        `${JSON.stringify({ format: FORMAT, lost: of('lost'), refused: of('refused') }, null, 2)}\n`
      )
    },
    remove() {
      rmSync(path, { force: true })
    }
  }
}
