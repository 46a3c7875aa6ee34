/**
 * Collects items and hands them over once per animation frame: a stream of 500 requests a
 * second becomes about 60 store updates and renders a second, not 500.
 */
export function frameBatcher<T>(flush: (items: T[]) => void): { push(item: T): void; cancel(): void } {
  let pending: T[] = []
  let frame: number | null = null
  const run = () => {
    frame = null
    const items = pending
    pending = []
    if (items.length > 0) flush(items)
  }
  return {
    push(item) {
      pending.push(item)
      if (frame === null) frame = requestAnimationFrame(run)
    },
    cancel() {
      if (frame !== null) cancelAnimationFrame(frame)
      frame = null
      pending = []
    }
  }
}
