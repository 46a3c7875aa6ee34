import type { EntityKind } from '../../shared/contract/changes'

/**
 * Numbers that move on writes to data tables (the write observer reports each one), so a reader
 * can keep what it read and know, for the cost of one comparison, whether it still holds.
 */
export interface DataVersion {
  /** Moves on every write to any data table. */
  current(): number
  /**
   * Moves on every write except to `kind`'s table: for readers of what such a write never changes.
   * Only for a leaf table (no other row references it, so its writes cascade nowhere).
   */
  ignoring(kind: EntityKind): () => number
  bump(kind: EntityKind): void
}

export function createDataVersion(): DataVersion {
  let total = 0
  const byKind = new Map<EntityKind, number>()
  return {
    current: () => total,
    ignoring: (kind) => () => total - (byKind.get(kind) ?? 0),
    bump(kind) {
      total++
      byKind.set(kind, (byKind.get(kind) ?? 0) + 1)
    }
  }
}
