/**
 * Numbers that move on writes to data tables (the write observer reports each one), so a reader
 * can keep what it read and know, for the cost of one comparison, whether it still holds.
 */
/**
 * Tables no other row references, so a write to one changes nothing else: an activation's stamp,
 * a verify's status record and audit entry. Readers of credentials, products and licenses keep
 * what they read across these writes (`ignoring(...LEAF_TABLES)`), which the licensing calls make
 * all the time.
 */
export const LEAF_TABLES = ['activations', 'connection_status', 'credential_audit'] as const

export interface DataVersion {
  /** Moves on every write to any data table. */
  current(): number
  /**
   * Moves on every write except to `tables`: for readers of what such writes never change. Only
   * for leaf tables (no other row references theirs, so their writes cascade nowhere).
   */
  ignoring(...tables: string[]): () => number
  bump(table: string): void
  /** Moves every version: rolled-back writes were counted when made, and what was read after them no longer holds. */
  rolledBack(): void
}

export function createDataVersion(): DataVersion {
  let total = 0
  const byTable = new Map<string, number>()
  return {
    current: () => total,
    ignoring(...tables) {
      return () => {
        let ignored = 0
        for (const table of tables) ignored += byTable.get(table) ?? 0
        return total - ignored
      }
    },
    rolledBack() {
      total++
    },
    bump(table) {
      total++
      byTable.set(table, (byTable.get(table) ?? 0) + 1)
    }
  }
}
