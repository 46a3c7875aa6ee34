import type { Page } from '@playwright/test'

import { expect, test } from './fixtures'
import { goTo, loadPreset, openApp, shot } from './support'

const SCREENS: [string, string][] = [
  ['#/overview', 'Overview'],
  ['#/developers', 'Developers & products'],
  ['#/credentials?product=prod_demo_synth', 'Credentials'],
  ['#/tester', 'Connection tester'],
  ['#/library', 'Library viewer'],
  ['#/requests', 'Requests'],
  ['#/scenarios', 'Scenarios & settings']
]

/** Nothing sticks out sideways: the page and the content column do not scroll horizontally. */
async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(`(() => {
    const content = document.querySelector('.content')
    return {
      page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      content: content ? content.scrollWidth - content.clientWidth : 0
    }
  })()`)
  expect(overflow).toEqual({ page: 0, content: 0 })
}

for (const [width, height] of [
  [1280, 800],
  [1920, 1080]
] as const) {
  test(`every screen fits ${width}x${height} with data loaded`, async ({ page, emulator }) => {
    await page.setViewportSize({ width, height })
    await loadPreset(emulator, 'full-library')
    await openApp(page, emulator)
    for (const [hash, title] of SCREENS) {
      await goTo(page, hash)
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
      // Loaded: no skeleton left.
      await expect(page.locator('.skeleton')).toHaveCount(0)
      await expectNoHorizontalOverflow(page)
      await shot(page, `${width}x${height}-${hash.slice(2).split('?')[0]}`)
    }
  })
}

test('empty states instead of blank screens on a fresh emulator', async ({ page, emulator }) => {
  await openApp(page, emulator)
  await goTo(page, '#/credentials')
  await expect(page.getByText('No developer yet')).toBeVisible()
  await goTo(page, '#/library')
  await expect(page.getByText('No customers yet')).toBeVisible()
  await goTo(page, '#/requests')
  await expect(page.getByText('No requests yet')).toBeVisible()
  await goTo(page, '#/developers')
  await expect(page.getByText('No developers yet')).toBeVisible()
})
