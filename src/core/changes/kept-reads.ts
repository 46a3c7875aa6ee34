/**
 * Reads kept while a data version stays put (./data-version.ts): `read(key, load)` answers what
 * `load` answered last time for `key` if no write has moved `version` since, and loads again
 * otherwise. Nothing stale is ever answered, as every write moves the version, and so does every
 * rollback (what was read after a rolled-back write is gone with it). At most `capacity` keys are
 * kept (the oldest read goes first). What is kept is shared between callers: they only read it.
 */
export function createKeptReads<K, V>(options: { version: () => number; capacity: number }) {
  const { version, capacity } = options
  const kept = new Map<K, V>()
  let keptAt = version()
  return {
    read(key: K, load: () => V): V {
      const now = version()
      if (now !== keptAt) {
        kept.clear()
        keptAt = now
      } else if (kept.has(key)) {
        return kept.get(key) as V
      }
      const value = load()
      kept.delete(key)
      if (kept.size >= capacity) kept.delete(kept.keys().next().value as K)
      kept.set(key, value)
      return value
    }
  }
}
