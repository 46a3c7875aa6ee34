import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, startServe, test } from './fixtures'
import type { ServedEmulator } from './fixtures'
import { expectCleanLayout } from './layout-checks'
import { DEMO, goTo, openApp, shot } from './support'

// Issue 34 (docs/upstream.md): the Upstream card on Scenarios & settings puts a second `serve` (the
// "real platform", with its own data) in front of the plugin; the status bar and the window title
// say so; a plugin's call shows in Requests as answered by the upstream; a script's change shows at once.

let platform: { emulator: ServedEmulator; stop: () => Promise<void> }

test.beforeAll(async () => {
  platform = await startServe()
  // The platform holds the demo credential and library; the emulator under test, reset, holds neither.
  expect((await platform.emulator.control('POST', '/presets/full-library')).status).toBe(200)
})

test.afterAll(async () => {
  await platform?.stop()
})

const PLUGIN_HEADERS = {
  'content-type': 'application/json',
  'x-svc-app-id': DEMO.appId,
  'x-svc-plugin-key': DEMO.pluginKey,
  'x-svc-plugin-secret': DEMO.pluginSecret
}

/** What the plugin does: validate its license through the emulator, from outside the page. */
async function pluginValidates(emulator: ServedEmulator) {
  const response = await fetch(`${emulator.baseUrl}/api/license/v1/validate`, {
    method: 'POST',
    headers: PLUGIN_HEADERS,
    body: JSON.stringify({ license_key: DEMO.perpetualKey, instance_id: 'studio-mac', nonce: 'n-upstream-1' })
  })
  return {
    status: response.status,
    source: response.headers.get('x-emulator-source'),
    body: (await response.json()) as Record<string, unknown>
  }
}

/** axe over the Upstream card alone: no serious or critical violation. */
async function expectCardAccessible(page: Page, where: string) {
  const results = await new AxeBuilder({ page })
    .include('[data-testid="upstream-card"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} at ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`
    )
  expect.soft(serious, `axe on the Upstream card at ${where}`).toEqual([])
}

/**
 * Whether the answered-by filter's chosen option is drawn whole (a select cuts its text without a
 * sign in the DOM). Run in the page: this project's e2e code has no DOM types.
 */
const ANSWERED_BY_CHOICE_FITS = `(() => {
  const select = document.querySelector('[data-testid="filter-answered-by"]')
  const style = getComputedStyle(select)
  const context = document.createElement('canvas').getContext('2d')
  context.font = [style.fontStyle, style.fontWeight, style.fontSize, style.fontFamily].join(' ')
  const text = select.options[select.selectedIndex].text
  return context.measureText(text).width <= select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
})()`

/** The most lines any request path of the list takes. */
const MOST_PATH_LINES = `(() => Math.max(...[...document.querySelectorAll('.row-button .breakable')].map((element) => {
  const range = document.createRange()
  range.selectNodeContents(element)
  return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size
})))()`

test('the Upstream card forwards to the platform, the app says so, and Requests shows who answered', async ({
  page,
  emulator
}) => {
  const host = new URL(platform.emulator.baseUrl).host
  // Not forwarded yet: the emulator does not know the platform's credential.
  const local = await pluginValidates(emulator)
  expect(local.status).toBe(401)
  expect(local.source).toBe('emulator')

  await page.setViewportSize({ width: 1280, height: 800 })
  await openApp(page, emulator, '#/scenarios')
  const card = page.getByTestId('upstream-card')
  await card.scrollIntoViewIfNeeded()
  await expect(page.getByTestId('status-upstream')).toHaveCount(0)
  await expect(page).not.toHaveTitle(/Forwarding/)
  await expect(card.getByRole('button', { name: 'Stop forwarding' })).toBeDisabled()

  // Set it from the card: the URL and two routes.
  await card.getByTestId('upstream-url').fill(platform.emulator.baseUrl)
  await card.getByTestId('upstream-routes').fill('/api/license/**, /.well-known/**')
  await card.getByRole('button', { name: 'Forward', exact: true }).click()
  const label = `Forwarding /api/license/**, /.well-known/** to ${host}`
  await expect(page.getByTestId('status-upstream')).toContainText(label)
  await expect(page).toHaveTitle(new RegExp(label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  expect((await emulator.control('GET', '/upstream')).body).toEqual({
    ok: true,
    upstream: { url: platform.emulator.baseUrl, routes: ['/api/license/**', '/.well-known/**'] }
  })
  await expect(card.getByRole('button', { name: 'Save', exact: true })).toBeVisible()
  await expect(card.getByRole('button', { name: 'Stop forwarding' })).toBeEnabled()

  for (const [width, height] of [
    [1280, 800],
    [1366, 768]
  ] as const) {
    await page.setViewportSize({ width, height })
    await card.scrollIntoViewIfNeeded()
    await expectCleanLayout(page, `Scenarios & settings with forwarding on at ${width}x${height}`)
    await expectCardAccessible(page, `${width}x${height}`)
    await shot(page, `upstream-card-${width}`)
  }

  // A plugin's call through the emulator is answered by the platform, with the platform's data.
  const forwarded = await pluginValidates(emulator)
  expect(forwarded.status).toBe(200)
  expect(forwarded.source).toBe('upstream')
  expect(forwarded.body).toMatchObject({ valid: true })
  // Outside the routes set on the card: the emulator answers (it knows no such credential).
  const verify = await fetch(`${emulator.baseUrl}/api/plugin-connections/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      productId: DEMO.productId,
      appId: DEMO.appId,
      pluginKey: DEMO.pluginKey,
      pluginSecret: DEMO.pluginSecret
    })
  })
  expect(verify.headers.get('x-emulator-source')).toBe('emulator')

  await page.setViewportSize({ width: 1280, height: 800 })
  await goTo(page, '#/requests')
  const validateRows = page.getByRole('row').filter({ hasText: '/api/license/v1/validate' })
  const verifyRow = page.getByRole('row').filter({ hasText: '/api/plugin-connections/verify' })
  await expect(validateRows).toHaveCount(2)
  await expect(verifyRow).toHaveCount(1)
  const upstreamRow = validateRows.filter({ has: page.getByTestId('request-answered-by') })
  await expect(upstreamRow).toHaveCount(1)
  await expect(upstreamRow.getByTestId('request-answered-by')).toHaveText('upstream')
  await expect(upstreamRow).toContainText('200')
  await expect(verifyRow.getByTestId('request-answered-by')).toHaveCount(0)
  await expect(page.getByTestId('status-upstream')).toContainText(label)
  for (const [width, height] of [
    [1280, 800],
    [1366, 768]
  ] as const) {
    await page.setViewportSize({ width, height })
    await expectCleanLayout(page, `Requests with a forwarded exchange at ${width}x${height}`)
    // The path stays readable beside the badges: wrapped at its separators (three lines at most), not a few letters a line.
    expect
      .soft(await page.evaluate(MOST_PATH_LINES), `lines of a request path at ${width}x${height}`)
      .toBeLessThanOrEqual(3)
    await shot(page, `upstream-requests-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 800 })

  // The answered-by filter, its choice shown whole (not "Upst…").
  await page.getByTestId('filter-answered-by').selectOption('upstream')
  expect(await page.evaluate(ANSWERED_BY_CHOICE_FITS)).toBe(true)
  await expect(validateRows).toHaveCount(1)
  await expect(verifyRow).toHaveCount(0)
  await expect(page.getByTestId('request-answered-by')).toHaveText(['upstream'])
  await page.getByTestId('filter-answered-by').selectOption('emulator')
  await expect(validateRows).toHaveCount(1)
  await expect(verifyRow).toHaveCount(1)
  await expect(page.getByTestId('request-answered-by')).toHaveCount(0)
  await page.getByTestId('filter-answered-by').selectOption('')
  await expect(validateRows).toHaveCount(2)

  // A script changes the setting: the status bar and the title follow within a second.
  const scripted = await emulator.control('PUT', '/upstream', { url: platform.emulator.baseUrl, routes: ['/api/**'] })
  expect(scripted.status).toBe(200)
  await expect(page.getByTestId('status-upstream')).toContainText(`Forwarding /api/** to ${host}`, { timeout: 1000 })
  await expect(page).toHaveTitle(new RegExp(`Forwarding /api/\\*\\* to ${host.replace(/\./g, '\\.')}`), {
    timeout: 1000
  })
  // ... and so does the card's form.
  await goTo(page, '#/scenarios')
  await expect(card.getByTestId('upstream-routes')).toHaveValue('/api/**')
  await expect(card.getByTestId('upstream-url')).toHaveValue(platform.emulator.baseUrl)

  // Clear it from the card.
  await card.getByRole('button', { name: 'Stop forwarding' }).click()
  await expect(page.getByTestId('status-upstream')).toHaveCount(0)
  await expect(page).not.toHaveTitle(/Forwarding/)
  expect(
    (await emulator.control<{ upstream: { url: string | null } }>('GET', '/upstream')).body.upstream.url
  ).toBeNull()
  expect((await pluginValidates(emulator)).source).toBe('emulator')
  await expect(card.getByRole('button', { name: 'Stop forwarding' })).toBeDisabled()
  await expect(card.getByRole('button', { name: 'Forward', exact: true })).toBeVisible()
})

test.afterEach(async ({ emulator }) => {
  await emulator.control('PUT', '/upstream', { url: null })
})
