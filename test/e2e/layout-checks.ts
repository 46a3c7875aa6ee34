import type { Page } from '@playwright/test'

import { expect } from './fixtures'

/**
 * What a person sees broken, measured: two visible pieces of text drawn over each other, text
 * that ends past the window's right edge, and a sideways scroll of the document or the main area.
 * Text is measured per text node (Range rects), so a badge over a title counts, a wrapped title
 * does not. Only text a person can see is measured: inside the window, not visually hidden, not
 * under a modal dialog (the dialog's own layer is measured when one is open).
 */
export interface LayoutProblems {
  overlaps: string[]
  cutOff: string[]
  sideways: { document: number; content: number }
}

export async function layoutProblems(page: Page): Promise<LayoutProblems> {
  return page.evaluate(`(() => {
    const width = window.innerWidth, height = window.innerHeight
    const modal = [...document.querySelectorAll('dialog[open]')].pop() || null
    const root = modal || document.body
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT)
    const boxes = []
    const hiddenBy = (element) => element.closest('.visually-hidden, [aria-hidden="true"], .toast-region:not(.toast-region--in-dialog)')
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent || !node.textContent.trim()) continue
      const element = node.parentElement
      if (!element || hiddenBy(element)) continue
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true, contentVisibilityAuto: true })) continue
      const range = document.createRange()
      range.selectNodeContents(node)
      for (const whole of range.getClientRects()) {
        // What of it is seen: cut to every scrolling or overflow-hidden ancestor (an ellipsis, a scrolled list).
        let rect = { left: whole.left, top: whole.top, right: whole.right, bottom: whole.bottom }
        for (let a = element; a && a !== document.body; a = a.parentElement) {
          const s = getComputedStyle(a)
          if (s.overflowX === 'visible' && s.overflowY === 'visible') continue
          const c = a.getBoundingClientRect()
          rect = { left: Math.max(rect.left, c.left), top: Math.max(rect.top, c.top), right: Math.min(rect.right, c.right), bottom: Math.min(rect.bottom, c.bottom) }
        }
        if (rect.right - rect.left < 1 || rect.bottom - rect.top < 1) continue
        if (rect.bottom <= 0 || rect.top >= height || rect.right <= 0 || rect.left >= width) continue
        // Scrolled under a sticky header or the status bar: hidden by design, not overlapping.
        const hit = document.elementFromPoint((rect.left + rect.right) / 2, (rect.top + rect.bottom) / 2)
        if (hit && !element.contains(hit) && !hit.contains(element)) {
          let pinned = false
          for (let a = hit; a && a !== document.body; a = a.parentElement) {
            const position = getComputedStyle(a).position
            if (position === 'sticky' || position === 'fixed') { pinned = !a.contains(element); break }
          }
          if (pinned) continue
        }
        const main = element.closest('.content')
        const edge = Math.min(width, main ? main.getBoundingClientRect().right : width)
        boxes.push({ element, rect, text: node.textContent.trim().slice(0, 40), cut: whole.right > edge + 1 })
      }
    }
    const overlaps = []
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i], b = boxes[j]
        if (a.element === b.element || a.element.contains(b.element) || b.element.contains(a.element)) continue
        const x = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left)
        const y = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top)
        if (x > 2 && y > 2) overlaps.push(JSON.stringify(a.text) + ' / ' + JSON.stringify(b.text))
      }
    }
    const cutOff = boxes.filter((box) => box.cut).map((box) => box.text)
    const doc = document.scrollingElement
    const content = document.querySelector('.content')
    return {
      overlaps: [...new Set(overlaps)].slice(0, 10),
      cutOff: [...new Set(cutOff)].slice(0, 10),
      sideways: { document: doc.scrollWidth - doc.clientWidth, content: content ? content.scrollWidth - content.clientWidth : 0 }
    }
  })()`)
}

/** No overlap, nothing cut off at the right edge, no sideways scroll (soft: every problem of a run is listed). */
export async function expectCleanLayout(page: Page, where: string): Promise<void> {
  const problems = await layoutProblems(page)
  expect.soft(problems.overlaps, `overlapping text on ${where}`).toEqual([])
  expect.soft(problems.cutOff, `text cut off at the right edge on ${where}`).toEqual([])
  expect.soft(problems.sideways, `sideways scroll on ${where}`).toEqual({ document: 0, content: 0 })
}

/** Every control of the open dialog can be clicked: nothing (a toast, say) lies over its centre. */
export async function expectDialogControlsReachable(page: Page, where: string): Promise<void> {
  const covered = await page.evaluate(`(() => {
    const dialog = [...document.querySelectorAll('dialog[open]')].pop()
    if (!dialog) return ['no open dialog']
    return [...dialog.querySelectorAll('button')].filter((button) => button.offsetParent !== null && !button.closest('.toast')).flatMap((button) => {
      // Scrolled to as a person (or Playwright's click) would in a dialog taller than the window.
      button.scrollIntoView({ block: 'nearest' })
      const r = button.getBoundingClientRect()
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
      return hit && (hit === button || button.contains(hit)) ? [] : [button.textContent.trim() || button.getAttribute('aria-label')]
    })
  })()`)
  expect.soft(covered, `covered dialog controls on ${where}`).toEqual([])
}

/**
 * A path or code that wraps at its separators (BreakableText) broken inside a part instead:
 * `/api/license/v1/validat` + `e` on a column squeezed by a badge.
 */
export async function partsBrokenMidWord(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const broken = []
    for (const element of document.querySelectorAll('.breakable')) {
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue
      for (const node of element.childNodes) {
        const text = node.nodeType === Node.TEXT_NODE ? node.textContent.trim() : ''
        if (text.length < 2 || /\\s/.test(text)) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)))
        if (lines.size > 1) broken.push(element.textContent.trim().slice(0, 60) + ' at ' + JSON.stringify(text))
      }
    }
    return [...new Set(broken)]
  })()`)
}

/**
 * A button whose label does not sit on one line inside it: its text on two lines (measured per
 * text node, Range rects grouped into lines), or running past the button's edge. Labels never
 * wrap (`.btn` is nowrap): this holds that, whatever a later style does.
 */
export async function wrappedButtonLabels(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const wrapped = []
    for (const button of document.querySelectorAll('.btn')) {
      if (!button.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue
      if (button.closest('.visually-hidden, [aria-hidden="true"], dialog:not([open])')) continue
      const box = button.getBoundingClientRect()
      const rects = []
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent.trim()) continue
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const rect of range.getClientRects()) if (rect.width > 0 && rect.height > 0) rects.push(rect)
      }
      if (rects.length === 0) continue
      // One line: every piece of text starts within half a line of the first (a button's line-height
      // of 1 is less than the text's box, so the boxes of two lines overlap).
      const first = rects[0]
      const lines = rects.some((rect) => Math.abs(rect.top - first.top) > first.height / 2) ? 'on two lines' : null
      const past = rects.some((rect) => rect.left < box.left - 1 || rect.right > box.right + 1) ? 'past its edge' : null
      const label = button.textContent.trim() || button.getAttribute('aria-label')
      if (lines || past) wrapped.push(JSON.stringify(label) + ' ' + [lines, past].filter(Boolean).join(', '))
    }
    return [...new Set(wrapped)]
  })()`)
}

/**
 * A time's relative hint (`· 30 days ago`) broken over two lines. A narrow column may put the
 * hint under the date, whole.
 */
export async function brokenMoments(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const broken = []
    for (const part of document.querySelectorAll('.moment__relative')) {
      if (!part.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue
      const range = document.createRange()
      range.selectNodeContents(part)
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0 && rect.height > 0)
      if (rects.length === 0) continue
      // One line: every piece starts within half a line of the first.
      if (rects.some((rect) => Math.abs(rect.top - rects[0].top) > rects[0].height / 2)) broken.push(part.textContent.trim())
    }
    return [...new Set(broken)]
  })()`)
}

/**
 * Buttons that belong on one row (an action and its opposite: Start and Stop, Download and
 * Delete), each group being the visible buttons inside one element `selector` matches: the groups
 * whose buttons are not all on the same line, as "label@top, label@top". A group found nowhere
 * counts as broken, so a renamed selector cannot pass unseen.
 */
export async function buttonRowsBroken(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(`((selector) => {
    const groups = [...document.querySelectorAll(selector)].filter((group) => group.checkVisibility())
    if (groups.length === 0) return ['nothing matches ' + selector]
    const broken = []
    for (const group of groups) {
      const buttons = [...group.querySelectorAll('.btn')].filter((button) => button.checkVisibility())
      if (buttons.length < 2) continue
      const boxes = buttons.map((button) => button.getBoundingClientRect())
      // One line: every button overlaps the first one vertically.
      if (boxes.every((box) => box.top < boxes[0].bottom - 1 && box.bottom > boxes[0].top + 1)) continue
      broken.push(buttons.map((button, i) => button.textContent.trim() + '@' + Math.round(boxes[i].top)).join(', '))
    }
    return broken
  })(${JSON.stringify(selector)})`)
}

/**
 * Select boxes whose chosen option does not fit: a select draws its text inside a box of its own,
 * so its scrollWidth never shows the cut and the ellipsis check above cannot see it. The chosen
 * option's text is measured in the select's font against the box less its padding (the arrow sits
 * in the right padding).
 */
export async function selectsCut(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const cut = []
    const context = document.createElement('canvas').getContext('2d')
    for (const select of document.querySelectorAll('select')) {
      if (!select.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue
      if (select.closest('.visually-hidden, [aria-hidden="true"], dialog:not([open])')) continue
      const option = select.selectedOptions[0]
      if (!option) continue
      const s = getComputedStyle(select)
      context.font = s.font
      const text = option.label || option.textContent
      const room = select.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)
      const needed = context.measureText(text.trim()).width
      if (needed > room + 1) cut.push(JSON.stringify(text.trim().slice(0, 60)) + ' needs ' + Math.ceil(needed) + ' px, has ' + Math.floor(room))
    }
    return [...new Set(cut)]
  })()`)
}
