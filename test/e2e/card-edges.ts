import type { Page } from '@playwright/test'

import { expect } from './fixtures'

/**
 * What layoutProblems (layout-checks.ts) does not see: text that runs past the edge of its own
 * card while the window is wide enough (it is drawn over the card's border or the next card),
 * text cut by an ellipsis (readable only on hover), and a value wrapped a few letters a line.
 */
export interface CardEdgeProblems {
  /** Text ending past its card's right edge, or clipped by an overflow-hidden box inside it. */
  pastEdge: string[]
  /** Text shortened with an ellipsis: only a hover (title) shows it whole. */
  ellipsis: string[]
  /** A text node wrapped onto three or more lines while it holds no space (an email, an ID). */
  shredded: string[]
}

export async function cardEdgeProblems(page: Page): Promise<CardEdgeProblems> {
  return page.evaluate(`(() => {
    const pastEdge = [], ellipsis = [], shredded = []
    const visible = (element) => element.checkVisibility({ visibilityProperty: true, opacityProperty: true }) && !element.closest('.visually-hidden, [aria-hidden="true"], dialog:not([open])')
    for (const card of document.querySelectorAll('.card')) {
      if (!visible(card)) continue
      const edge = card.getBoundingClientRect()
      const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = (node.textContent || '').trim()
        const element = node.parentElement
        if (!text || !element || !visible(element)) continue
        // Inside a box that scrolls sideways (a wide table, a JSON view): reached by scrolling, by design.
        let scrolls = false
        for (let a = element; a && a !== card; a = a.parentElement) {
          const s = getComputedStyle(a)
          if (s.overflowX === 'auto' || s.overflowX === 'scroll') { scrolls = true; break }
          if (s.textOverflow === 'ellipsis' && a.scrollWidth > a.clientWidth + 1) { ellipsis.push(text.slice(0, 60)); scrolls = true; break }
          if (s.overflowX === 'hidden' || s.overflowX === 'clip') {
            const box = a.getBoundingClientRect()
            const range = document.createRange()
            range.selectNodeContents(node)
            for (const rect of range.getClientRects()) if (rect.right > box.right + 1) { pastEdge.push(text.slice(0, 60)); break }
            scrolls = true
            break
          }
        }
        if (scrolls) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        const rects = [...range.getClientRects()].filter((rect) => rect.width > 0)
        if (rects.some((rect) => rect.right > edge.right + 1)) pastEdge.push(text.slice(0, 60))
        const lines = new Set(rects.map((rect) => Math.round(rect.top))).size
        if (lines >= 3 && !/\\s/.test(text)) shredded.push(text.slice(0, 60) + ' (' + lines + ' lines)')
      }
    }
    return { pastEdge: [...new Set(pastEdge)], ellipsis: [...new Set(ellipsis)], shredded: [...new Set(shredded)] }
  })()`)
}

/** Every card keeps its text inside it, whole, and readable without a hover. */
export async function expectTextInsideCards(page: Page, where: string): Promise<void> {
  const problems = await cardEdgeProblems(page)
  expect.soft(problems.pastEdge, `text past its card's edge on ${where}`).toEqual([])
  expect.soft(problems.ellipsis, `text cut by an ellipsis (hover to read) on ${where}`).toEqual([])
  expect.soft(problems.shredded, `a value wrapped a few letters a line on ${where}`).toEqual([])
}
