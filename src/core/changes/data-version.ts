/**
 * A number that moves on every write to a data table (the write observer bumps it), so a reader
 * can keep what it read and know, for the cost of one comparison, whether it still holds.
 */
export interface DataVersion {
  current(): number
  bump(): void
}

export function createDataVersion(): DataVersion {
  let version = 0
  return {
    current: () => version,
    bump: () => {
      version++
    }
  }
}
