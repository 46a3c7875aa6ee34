// The UI at scale, in Chromium (Debian's, driven by Playwright as the e2e tests do): the Requests
// screen with 5,000 logged requests while a live stream adds 500 a second, scrolled the whole
// time (longest main-thread task and frame times), and the library viewer opening a customer
// with 1,000 items (time until every license row is drawn). The bench process drives the page
// and the live load; the server is the built `serve`, as everywhere else.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import autocannon from 'autocannon'

import { startEmulator } from './emulator.mjs'
import { runLoad } from './load.mjs'

export const UI_LOGGED_REQUESTS = 5000
export const UI_LIVE_RATE = 500

/** The Chromium to drive, or null (then the phase is skipped and says why). */
export function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean)
  return candidates.find((path) => existsSync(path)) ?? null
}

/** Frame durations (ms) to the figures the report shows. */
export function summariseFrames(deltas) {
  const sorted = [...deltas].sort((a, b) => a - b)
  const at = (q) => (sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))])
  return {
    frames: sorted.length,
    p50Ms: round(at(0.5)),
    p95Ms: round(at(0.95)),
    maxMs: round(sorted.at(-1) ?? null),
    over50Ms: sorted.filter((d) => d > 50).length
  }
}

const round = (value) => (value === null ? null : Math.round(value * 10) / 10)

/**
 * @param {import('./config.mjs').BenchConfig} config
 * @param {ReturnType<import('./fixtures.mjs').buildFixtures>} fixtures
 * @param {string} workDir
 * @param {(line: string) => void} log
 */
export async function runUi(config, fixtures, workDir, log) {
  const executablePath = chromiumPath()
  if (!executablePath) {
    log('  skipped: no Chromium (install it with apt-get install chromium, or set CHROMIUM_PATH)')
    return { skipped: 'no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)' }
  }
  const { chromium } = await import('@playwright/test')
  const emu = await startEmulator({ databasePath: join(workDir, 'ui.db') })
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] })
  try {
    await emu.control('PUT', '/state', fixtures.document)
    await runLoad(
      emu.baseUrl,
      { method: 'GET', path: '/.well-known/jwks.json' },
      { connections: 10, amount: UI_LOGGED_REQUESTS }
    )
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.addInitScript(() => {
      const w = window
      w.__longTasks = []
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.__longTasks.push(entry.duration)
      }).observe({ type: 'longtask', buffered: true })
    })
    await page.goto(`${emu.baseUrl}/#admin-token=${emu.adminToken}`)
    await page.evaluate(() => (window.location.hash = '#/requests'))
    await page.locator('tbody tr[data-testid^="request-row-"]').first().waitFor()
    // Load every logged request into the list (pages of 100), as a user paging back would.
    const older = page.getByRole('button', { name: 'Load older requests' })
    for (let i = 0; i < UI_LOGGED_REQUESTS / 100 + 5 && (await older.count()) > 0; i++) {
      await older.click()
      await page.waitForFunction(() => !document.querySelector('.requests__more button[aria-busy="true"]'))
    }
    const loaded = await page.evaluate(() => document.querySelector('.requests__list .table-wrap')?.scrollHeight ?? 0)

    // Measure from here: the live stream and a continuous scroll, together.
    await page.evaluate(() => (window.__longTasks = []))
    const seconds = config.mode === 'quick' ? 4 : 10
    const live = autocannon({
      url: `${emu.baseUrl}/.well-known/jwks.json`,
      connections: 5,
      overallRate: UI_LIVE_RATE,
      duration: seconds
    })
    const frames = await page.evaluate(async (ms) => {
      const list = /** @type {HTMLElement} */ (document.querySelector('.requests__list .table-wrap'))
      const deltas = []
      let last = performance.now()
      const end = last + ms
      let direction = 1
      await new Promise((resolve) => {
        const step = (now) => {
          deltas.push(now - last)
          last = now
          if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) direction = -1
          else if (list.scrollTop <= 0) direction = 1
          list.scrollTop += direction * 240
          if (now < end) requestAnimationFrame(step)
          else resolve(undefined)
        }
        requestAnimationFrame(step)
      })
      return deltas
    }, seconds * 1000)
    const liveResult = await live
    const longTasks = await page.evaluate(() => window.__longTasks)
    const rows = await page.locator('tbody tr[data-testid^="request-row-"]').count()

    // The library viewer: choose the 1,000-item customer, until it is shown (every group drawn, a
    // long one with its first rows and "Show more").
    // The clock starts once the screen has settled on the customer it opens with (its library drawn
    // and its web view answered): that first load is not part of choosing another one, and a mark
    // taken while it was still under way made the figure depend on where it had got to.
    const items = 1000
    const isPath = (path) => (response) => new URL(response.url()).pathname === path
    const openingWebview = page.waitForResponse(isPath('/api/license/v1/webview-library'))
    await page.evaluate(() => (window.location.hash = '#/library'))
    await page.getByTestId('library-view').waitFor()
    await openingWebview
    // "Shown" is seen from inside the page: a MutationObserver notes the commit that drew both
    // groups' "Show more", and the figure is taken once that frame has been laid out and painted
    // (the task after its animation frame). Playwright's wait, which this phase used before, polls
    // with selector queries over the whole page (35 ms of the page's main thread in a profile of
    // this phase) and answers a round trip later: it runs only after the figure is taken.
    await page.evaluate(() => {
      const drawn = () =>
        document.querySelector('[data-testid="show-more-licenses"]') &&
        document.querySelector('[data-testid="show-more-products"]')
      // Both would otherwise be found at once (the customer the screen opened with has fewer rows).
      if (drawn()) throw new Error('the library already showed "Show more" before the 1,000-item customer was chosen')
      window.__libraryShown = new Promise((resolve, reject) => {
        setTimeout(() => reject(new Error('the 1,000-item library was not drawn within 60 s')), 60_000)
        const observer = new MutationObserver(() => {
          if (!drawn()) return
          observer.disconnect()
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now())))
        })
        observer.observe(document.body, { childList: true, subtree: true })
      })
      performance.mark('library-start')
    })
    await page.getByTestId('library-customer').selectOption(fixtures.libraryCustomerIds[items])
    const libraryRenderMs = await page.evaluate(
      async () => (await window.__libraryShown) - performance.getEntriesByName('library-start')[0].startTime
    )
    // What the observer saw is what a person sees: both groups' "Show more" visible.
    await page.getByTestId('show-more-licenses').waitFor({ timeout: 60_000 })
    await page.getByTestId('show-more-products').waitFor({ timeout: 60_000 })
    // Of that, the library answer's own time on the wire (server, 1,000 items of JSON).
    const libraryFetchMs = await page.evaluate(() => {
      const fetched = performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname === '/api/library')
      return fetched.length ? fetched.at(-1).duration : null
    })

    const result = {
      requests: {
        logged: UI_LOGGED_REQUESTS,
        liveRate: UI_LIVE_RATE,
        liveSent: liveResult.requests.total,
        seconds,
        drawnRows: rows,
        scrollHeightPx: loaded,
        longestTaskMs: round(longTasks.length ? Math.max(...longTasks) : 0),
        longTasks: longTasks.length,
        frame: summariseFrames(frames)
      },
      library: { items, renderMs: round(libraryRenderMs), fetchMs: round(libraryFetchMs) }
    }
    log(
      `  requests: longest task ${result.requests.longestTaskMs} ms (${result.requests.longTasks} long tasks), frames p50 ${result.requests.frame.p50Ms} / p95 ${result.requests.frame.p95Ms} / max ${result.requests.frame.maxMs} ms, ${rows} rows drawn`
    )
    log(
      `  library: ${items} items shown in ${result.library.renderMs} ms (the answer itself: ${result.library.fetchMs} ms)`
    )
    return result
  } finally {
    await browser.close()
    await emu.stop()
  }
}
