import { useEffect, useState } from 'react'
import type { RefObject } from 'react'

/**
 * Whether a box scrolls (its content is wider or taller than it): only then does it need to be
 * a tab stop, so the keyboard can scroll it (axe's scrollable-region-focusable). A box that fits
 * is no extra stop on the way through the page.
 */
export function useScrolls(ref: RefObject<HTMLElement | null>): boolean {
  const [scrolls, setScrolls] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = () =>
      setScrolls(element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1)
    // Measured only in the observer's callback, which runs after layout (observing starts with one
    // call): measured here, in the effect, each read forced a layout of the page, every render of
    // every table (212 ms of the 1,000-item library's first drawing).
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    for (const child of element.children) observer.observe(child)
    return () => observer.disconnect()
  })
  return scrolls
}
