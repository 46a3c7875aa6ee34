import type { Change, ChangeBatch } from '../../shared/contract/changes'

/** Changes within this interval go out as one batch: a busy plugin (validate in a loop) is one event, not thousands. */
export const CHANGE_BATCH_MS = 50
/** More changed ids of one kind in a batch than this are sent as one "many of this kind" change. */
const MAX_IDS_PER_KIND = 50

/**
 * The emulator's change feed: the core announces every change to state here (table writes via
 * the write observer, the clock, the fault rules, the settings, whole-state replaces), and the
 * server streams the batches. Without subscribers an announcement costs a map lookup.
 */
export interface ChangeFeed {
  announce(change: Change): void
  /** Runs `work` without announcing the row writes it makes (a whole-state replace announces itself once). */
  quietly<T>(work: () => T): T
  isQuiet(): boolean
  /** Called with each batch. Returns the unsubscribe function. */
  subscribe(listener: (batch: ChangeBatch) => void): () => void
  /** Sends what is pending now (tests; close). */
  flush(): void
  close(): void
}

function keyOf(change: Change): string {
  return change.kind === 'entity' ? `entity:${change.entity}:${change.id ?? ''}` : change.kind
}

export function createChangeFeed(batchMs: number = CHANGE_BATCH_MS): ChangeFeed {
  const listeners = new Set<(batch: ChangeBatch) => void>()
  let pending = new Map<string, Change>()
  let timer: ReturnType<typeof setTimeout> | null = null
  let quietDepth = 0
  let seq = 0

  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = null
    if (pending.size === 0) return
    const batch: ChangeBatch = { seq: ++seq, changes: coalesce([...pending.values()]) }
    pending = new Map()
    for (const listener of listeners) {
      try {
        listener(batch)
      } catch {
        // One broken subscriber must not keep the others from hearing.
      }
    }
  }

  return {
    announce(change) {
      if (listeners.size === 0) return
      // Moved to the end: the batch keeps the order of the last announcement of each change.
      const key = keyOf(change)
      pending.delete(key)
      pending.set(key, change)
      if (!timer) {
        timer = setTimeout(flush, batchMs)
        timer.unref()
      }
    },
    quietly(work) {
      quietDepth++
      try {
        return work()
      } finally {
        quietDepth--
      }
    },
    isQuiet: () => quietDepth > 0,
    subscribe(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    flush,
    close() {
      if (timer) clearTimeout(timer)
      timer = null
      pending.clear()
      listeners.clear()
    }
  }
}

/**
 * One batch as sent: a whole-state change stands for every other change made before it; many
 * ids of one kind become one change with id null.
 */
function coalesce(changes: Change[]): Change[] {
  const lastWhole = changes.map((change) => change.kind).lastIndexOf('everything')
  const relevant = lastWhole >= 0 ? changes.slice(lastWhole) : changes
  const perKind = new Map<string, number>()
  for (const change of relevant)
    if (change.kind === 'entity') perKind.set(change.entity, (perKind.get(change.entity) ?? 0) + 1)
  const out: Change[] = []
  const collapsed = new Set<string>()
  for (const change of relevant) {
    if (change.kind === 'entity' && (perKind.get(change.entity) ?? 0) > MAX_IDS_PER_KIND) {
      if (collapsed.has(change.entity)) continue
      collapsed.add(change.entity)
      out.push({ kind: 'entity', entity: change.entity, id: null })
    } else {
      out.push(change)
    }
  }
  return out
}
