/**
 * The waits for another program's write lock (Store.whenWritable, group commit's retries): the
 * pause between two tries, and a way to end every wait at once. A server stopping while a sqlite3
 * shell holds the lock waits up to the busy timeout (up to 10 minutes, as set) to write what is
 * still kept in memory; a second signal ends that wait instead of leaving Ctrl-C no way out.
 */
export interface LockWaits {
  /** Resolves after `ms`, or at once when the waits are ended. */
  pause(ms: number): Promise<void>
  /** Whether the waits were ended: a wait then gives up as at its busy timeout. */
  ended(): boolean
  /** Ends the pauses under way, and every wait from now on gives up at its first refusal. */
  end(): void
}

export function createLockWaits(): LockWaits {
  let ended = false
  const pauses = new Set<() => void>()
  return {
    pause(ms) {
      if (ended) return Promise.resolve()
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          pauses.delete(wake)
          resolve()
        }
        const timer = setTimeout(wake, ms)
        pauses.add(wake)
      })
    },
    ended: () => ended,
    end() {
      ended = true
      for (const wake of [...pauses]) wake()
    }
  }
}
