import { useState } from 'react'

/**
 * Calls `start` when `open` turns true, so each opening of a dialog starts clean. It runs during
 * render (React's pattern for state that follows a prop), not in an effect: no stale frame.
 */
export function useEachOpening(open: boolean, start: () => void): void {
  const [wasOpen, setWasOpen] = useState(open)
  if (open !== wasOpen) {
    setWasOpen(open)
    if (open) start()
  }
}
