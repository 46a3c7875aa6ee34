import { existsSync, readFileSync, rmSync } from 'node:fs'
import { dirname } from 'node:path'

import { writeFileAtomic } from '../files/atomic-file'

const FORMAT = 'plugin-license-emulator/recordings-lost'
const RECORDING_ID = /^rec_[A-Za-z0-9]{1,40}$/

/**
 * Beside the database, how many exchanges each recording lost when the emulator stopped while the
 * database still refused writes (another program held its write lock, it was read-only): the next
 * start adds them to the recordings' `lost` counts, then removes the file. It holds recording ids
 * and counts only, never an exchange.
 */
export interface LostExchangesFile {
  readonly path: string
  /** The counts the file holds; empty when there is none (or it is not one of these files). */
  read(): Map<string, number>
  /** Replaces the file with these counts; throws when the disk refuses it. */
  write(counts: ReadonlyMap<string, number>): void
  remove(): void
}

/** The file of a database; null for an in-memory one, which no later start can open again. */
export function lostExchangesFileFor(databasePath: string): LostExchangesFile | null {
  if (databasePath === ':memory:' || databasePath === '') return null
  const path = `${databasePath}.recordings-lost.json`
  return {
    path,
    read() {
      const counts = new Map<string, number>()
      let parsed: unknown
      try {
        parsed = JSON.parse(readFileSync(path, 'utf8'))
      } catch {
        return counts
      }
      // Anything but one of these files (a hand-edited `null`, a list) holds no counts.
      if (typeof parsed !== 'object' || parsed === null) return counts
      const { format, lost } = parsed as { format?: unknown; lost?: unknown }
      if (format !== FORMAT || typeof lost !== 'object' || lost === null) return counts
      for (const [id, count] of Object.entries(lost)) {
        if (RECORDING_ID.test(id) && Number.isSafeInteger(count) && (count as number) > 0)
          counts.set(id, count as number)
      }
      return counts
    },
    write(counts) {
      // Beside the database, or nowhere: a folder moved or deleted meanwhile is not made again.
      if (!existsSync(dirname(path))) throw new Error(`${dirname(path)} no longer exists`)
      writeFileAtomic(path, `${JSON.stringify({ format: FORMAT, lost: Object.fromEntries(counts) }, null, 2)}\n`)
    },
    remove() {
      rmSync(path, { force: true })
    }
  }
}
