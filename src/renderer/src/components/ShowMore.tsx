import { useState } from 'react'

import { Button } from './Button'

/** How many rows a long group draws at first, and adds per "Show more". */
export const SHOWN_AT_FIRST = 50

/** A long list's first rows, and the actions that draw more (useShownRows). */
export interface ShownRows<T> {
  shown: readonly T[]
  total: number
  showMore: () => void
  showAll: () => void
}

/**
 * The first rows of a long list, and more on request: a library of 1,000 items opens at once
 * instead of drawing every row (and its buttons) before anything shows.
 */
export function useShownRows<T>(rows: readonly T[]): ShownRows<T> {
  const [count, setCount] = useState(SHOWN_AT_FIRST)
  return {
    shown: rows.length > count ? rows.slice(0, count) : rows,
    total: rows.length,
    showMore: () => setCount((current) => current + SHOWN_AT_FIRST * 4),
    showAll: () => setCount(Number.POSITIVE_INFINITY)
  }
}

/** "Showing 50 of 1,000 licenses", with the buttons that draw more; nothing when all are shown. */
export function ShowMore({ rows, what }: { rows: ShownRows<unknown>; what: string }) {
  const shown = rows.shown.length
  if (shown >= rows.total) return null
  return (
    <div className="show-more" data-testid={`show-more-${what.replaceAll(' ', '-')}`}>
      <span className="muted small">
        Showing {shown.toLocaleString('en-US')} of {rows.total.toLocaleString('en-US')} {what}
      </span>
      <Button size="sm" variant="ghost" needsServer={false} onClick={rows.showMore}>
        Show {Math.min(SHOWN_AT_FIRST * 4, rows.total - shown).toLocaleString('en-US')} more
      </Button>
      <Button size="sm" variant="ghost" needsServer={false} onClick={rows.showAll}>
        Show all
      </Button>
    </div>
  )
}
