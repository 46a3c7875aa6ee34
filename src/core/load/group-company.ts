/**
 * How many requests the last group commit of this process answered together
 * (src/core/store/group-commit.ts): the requests read in one turn of the event loop. One figure for
 * the whole process, as there is one event loop and one thread pool. A request whose group was its
 * alone (one call at a time: a plugin's test suite, a CI job) skips what only pays off when
 * requests overlap (a signature on the thread pool). Counting requests from their arrival instead
 * does not tell this: Node reads one socket's request through to its first wait before it reads
 * the next, so under load every request looked alone (measured: 50 connections, a count of 1 at
 * every signature).
 */
let lastGroupSize = 0

export const groupCompany = {
  /** Called by the group commit with the number of works it committed together. */
  committed(size: number): void {
    lastGroupSize = size
  },
  /** Whether the last group held at most one request's work. */
  alone(): boolean {
    return lastGroupSize <= 1
  }
}
