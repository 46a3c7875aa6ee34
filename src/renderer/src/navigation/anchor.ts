/**
 * A place inside a screen a link can land on: `#/scenarios?at=clock` opens Scenarios & settings
 * with the element whose id is `clock` at the top of the view and its heading focused, instead of
 * the top of the screen. Data that arrives after the jump (a library loading above the target)
 * would push the target away: it is kept in view until the layout settles or the person scrolls.
 */

/** Ids a link may name: the clock and fault rules of Scenarios & settings, the Library's clock. */
export const ANCHORS = {
  scenariosClock: 'clock',
  scenariosFaults: 'fault-rules',
  libraryClock: 'qa-clock-title'
} as const

/** Long enough for a screen's first loads to land; a person's scroll or key ends it sooner. */
const SETTLE_FOR_MS = 2500

let stopPrevious: (() => void) | null = null

/** Brings the element with this id into view (and focus), and keeps it there while the screen loads. */
export function scrollToAnchor(id: string): void {
  stopPrevious?.()
  const deadline = performance.now() + SETTLE_FOR_MS
  let frame = 0
  let focused = false
  /** Where the jump left the target: it is moved back only when loading content shifted it. */
  let landedTop: number | null = null
  const stop = () => {
    cancelAnimationFrame(frame)
    for (const event of USER_SCROLLS) window.removeEventListener(event, stop, true)
    if (stopPrevious === stop) stopPrevious = null
  }
  const step = () => {
    const target = document.getElementById(id)
    if (target) {
      if (landedTop === null || Math.abs(target.getBoundingClientRect().top - landedTop) > 1) {
        target.scrollIntoView({ block: 'start' })
        landedTop = target.getBoundingClientRect().top
      }
      if (!focused) {
        focused = true
        const heading = target.matches('h1, h2, h3') ? target : target.querySelector<HTMLElement>('h2, h3')
        if (heading) {
          if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1')
          heading.focus({ preventScroll: true })
        }
      }
    }
    if (performance.now() < deadline) frame = requestAnimationFrame(step)
    else stop()
  }
  for (const event of USER_SCROLLS) window.addEventListener(event, stop, { capture: true, passive: true })
  stopPrevious = stop
  frame = requestAnimationFrame(step)
}

const USER_SCROLLS = ['wheel', 'keydown', 'pointerdown', 'touchstart'] as const
