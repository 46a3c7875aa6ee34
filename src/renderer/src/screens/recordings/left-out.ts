/** A recording's counts of exchanges it does not hold (docs/upstream.md, "Record"). */
export interface LeftOutCounts {
  /** Left out when written: they still held a secret's shape. */
  refused: number
  /** Lost to storage faults: past what memory holds while the disk refused, or still waiting at exit. */
  lost: number
}

/**
 * What the Exchanges cell adds to the count, and its tooltip: nothing for a whole recording, so a
 * reader sees at a glance which ones are not.
 */
export function leftOutNote(counts: LeftOutCounts): { suffix: string; title: string | undefined } {
  const suffix: string[] = []
  const title: string[] = []
  if (counts.refused > 0) {
    suffix.push(`+${counts.refused} refused`)
    title.push(`${counts.refused} left out: they still held a secret's shape`)
  }
  if (counts.lost > 0) {
    suffix.push(`+${counts.lost} lost`)
    title.push(
      `${counts.lost} lost: storage refused writes (a full disk, another program's lock) past what memory holds, or until the emulator stopped`
    )
  }
  return suffix.length === 0
    ? { suffix: '', title: undefined }
    : { suffix: ` (${suffix.join(', ')})`, title: title.join('; ') }
}
