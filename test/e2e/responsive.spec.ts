import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'

import { expect, test } from './fixtures'
import { DEMO, expectAccessible, goTo, loadPreset, openApp } from './support'

/** Screenshots of every screen at the three sizes people use (looked at by hand; .tmp/ is not committed). */
const RESPONSIVE_DIR = join(process.cwd(), '.tmp', 'responsive')

const SIZES = [
  [800, 700],
  [1024, 768],
  [1440, 900]
] as const

/** Each screen with the controls a person needs there, which must be visible and inside the window. */
/** `ready`: what shows once the screen's data is in (controls below it only settle then). */
const SCREENS: { hash: string; title: string; keys: (page: Page) => Locator[]; ready?: (page: Page) => Locator }[] = [
  { hash: '#/overview', title: 'Overview', keys: (page) => [page.getByRole('button', { name: 'Copy base URL' })] },
  {
    hash: '#/developers',
    title: 'Developers & products',
    keys: (page) => [
      page.getByRole('button', { name: 'Create developer' }),
      page.getByRole('button', { name: 'Create product' })
    ]
  },
  {
    hash: `#/credentials?product=${DEMO.productId}`,
    title: 'Credentials',
    // The detail loads through the management API as the acting developer: after the list.
    ready: (page) => page.getByRole('button', { name: 'Reveal secret' }),
    keys: (page) => [
      page.getByRole('button', { name: 'Reveal secret' }),
      page.getByRole('button', { name: 'Copy App ID' })
    ]
  },
  {
    hash: `#/tester?product=${DEMO.productId}`,
    title: 'Connection tester',
    keys: (page) =>
      ['verify', 'activate', 'validate', 'deactivate'].map((step) =>
        page.getByTestId(`step-${step}`).getByRole('button', { name: new RegExp(`^${step}$`, 'i') })
      )
  },
  {
    hash: '#/library',
    title: 'Library viewer',
    // The QA actions follow the library: they are where they stay once it has loaded.
    ready: (page) => page.getByTestId('library-licenses'),
    keys: (page) => [
      page.getByTestId('qa-toolbar').getByRole('button', { name: 'Buy' }),
      page.getByTestId('qa-toolbar').getByRole('button', { name: /\+30 days/ })
    ]
  },
  { hash: '#/requests', title: 'Requests', keys: (page) => [page.getByRole('button', { name: 'Clear log' })] },
  {
    hash: '#/scenarios',
    title: 'Scenarios & settings',
    keys: (page) => [page.getByRole('button', { name: /Export state/ })]
  }
]

/** The document and the screen's scrolling region do not scroll sideways; nor does any card. */
async function overflow(page: Page): Promise<Record<string, number>> {
  return page.evaluate(`(() => {
    const doc = document.scrollingElement
    const content = document.querySelector('.content')
    const result = { document: doc.scrollWidth - doc.clientWidth, content: content.scrollWidth - content.clientWidth }
    return result
  })()`)
}

/** A control is on screen: visible, and its box lies inside the viewport horizontally. */
async function expectInsideViewport(page: Page, control: Locator): Promise<void> {
  await control.scrollIntoViewIfNeeded({ timeout: 5000 }).catch(() => undefined)
  await expect.soft(control).toBeVisible({ timeout: 5000 })
  const box = await control.boundingBox()
  const viewport = page.viewportSize()!
  const name = String(control)
  expect.soft(box, `${name} has a box`).not.toBeNull()
  if (!box) return
  expect.soft(box.x, name).toBeGreaterThanOrEqual(0)
  expect.soft(box.x + box.width, name).toBeLessThanOrEqual(viewport.width + 1)
  // Scrolled to, it is inside the window; scrolled again if content above it was still settling.
  await expect(async () => {
    await control.scrollIntoViewIfNeeded({ timeout: 2000 })
    const settled = await control.boundingBox()
    expect(settled, name).not.toBeNull()
    expect(settled?.y ?? -1, name).toBeGreaterThanOrEqual(0)
    expect((settled?.y ?? 0) + (settled?.height ?? 0), name).toBeLessThanOrEqual(viewport.height + 1)
  }).toPass({ timeout: 10_000 })
}

for (const [width, height] of SIZES) {
  test(`every screen works at ${width}x${height}: nothing overflows sideways, key controls are on screen`, async ({
    page,
    emulator
  }) => {
    mkdirSync(RESPONSIVE_DIR, { recursive: true })
    await page.setViewportSize({ width, height })
    await loadPreset(emulator, 'full-library')
    await openApp(page, emulator)
    for (const screen of SCREENS) {
      await goTo(page, screen.hash)
      await expect(page.getByRole('heading', { level: 1, name: screen.title })).toBeVisible()
      if (screen.ready) await expect(screen.ready(page)).toBeVisible()
      for (const control of screen.keys(page)) await expectInsideViewport(page, control)
      await page.evaluate('document.querySelector(".content").scrollTo(0, 0)')
      expect.soft(await overflow(page), screen.title).toEqual({ document: 0, content: 0 })
      await page.screenshot({
        path: join(RESPONSIVE_DIR, `${width}x${height}-${screen.hash.slice(2).split('?')[0]}.png`)
      })
      // axe at 800 (the icon rail) and 1440 (the full sidebar); 1024 has the rail too, and
      // every-screen-sizes.spec.ts runs it on every screen in a fuller state (CI time).
      if (width !== 1024) await expectAccessible(page, `${screen.title} at ${width}x${height}`)
      // One window further down too: what lies below the fold is looked at as well.
      await page.evaluate(
        '(() => { const main = document.querySelector(".content"); main.scrollTo(0, main.clientHeight - 80); document.querySelector("[data-testid=library-licenses]")?.scrollIntoView() })()'
      )
      expect.soft(await overflow(page), `${screen.title}, scrolled`).toEqual({ document: 0, content: 0 })
      await page.screenshot({
        path: join(RESPONSIVE_DIR, `${width}x${height}-${screen.hash.slice(2).split('?')[0]}-2.png`)
      })
      // Every screen stays reachable from the navigation, whatever its width.
      await expectInsideViewport(
        page,
        page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Scenarios & settings' })
      )
    }
  })
}

test('the document never scrolls: the main area does, and the wheel over a dialog moves nothing behind it', async ({
  page,
  emulator
}) => {
  await page.setViewportSize({ width: 800, height: 700 })
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, `#/credentials?product=${DEMO.productId}`)
  const documentScroll = () => page.evaluate('document.scrollingElement.scrollTop')
  const sidebarTop = async () => (await page.locator('.sidebar').boundingBox())!.y

  // The main area is long enough to scroll here, and scrolling it moves only it.
  const main = page.locator('main.content')
  const scrollable = await main.evaluate((element) => element.scrollHeight > element.clientHeight)
  expect(scrollable).toBe(true)
  await main.hover()
  await page.mouse.wheel(0, 5000)
  await expect.poll(() => main.evaluate((element) => element.scrollTop)).toBeGreaterThan(0)
  await main.evaluate((element) => element.scrollTo(0, element.scrollHeight))
  expect(await documentScroll()).toBe(0)
  expect(await sidebarTop()).toBe(0)
  // Nothing positioned against the document makes it taller than the window.
  expect(await page.evaluate('document.scrollingElement.scrollHeight - document.scrollingElement.clientHeight')).toBe(0)

  // A dialog: the wheel over it scrolls neither the document nor shifts the shell.
  await main.evaluate((element) => element.scrollTo(0, 0))
  await page.getByRole('button', { name: 'Reveal secret' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toBeVisible()
  await dialog.hover()
  await page.mouse.wheel(0, 3000)
  await page.keyboard.press('End')
  expect(await documentScroll()).toBe(0)
  expect(await sidebarTop()).toBe(0)
  expect(await page.evaluate('window.scrollY')).toBe(0)
})
