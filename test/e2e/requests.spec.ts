import { expect, test } from './fixtures'
import { callService, DEMO, DEMO_VALUES, loadPreset, openApp, shot } from './support'

test('requests stream in live, filter by status, and open redacted', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/requests')
  await expect(page.getByTestId('live-indicator')).toBeVisible()

  // A plugin calls while the inspector is open: no reload needed.
  const bad = await callService(emulator, 'POST', '/api/plugin-connections/verify', {
    ...DEMO_VALUES,
    pluginSecret: 'sk_Wrong0000000000000000'
  })
  expect(bad.status).toBe(401)
  const good = await callService(
    emulator,
    'POST',
    '/api/license/v1/validate',
    { license_key: DEMO.perpetualKey },
    {
      'x-svc-app-id': DEMO.appId,
      'x-svc-plugin-key': DEMO.pluginKey,
      'x-svc-plugin-secret': DEMO.pluginSecret
    }
  )
  expect(good.status).toBe(200)
  const verifyRow = page.getByRole('row').filter({ hasText: '/api/plugin-connections/verify' })
  const validateRow = page.getByRole('row').filter({ hasText: '/api/license/v1/validate' })
  await expect(verifyRow).toContainText('401')
  await expect(validateRow).toContainText('200')
  await page.setViewportSize({ width: 1920, height: 1080 })
  await verifyRow.getByRole('button').click()
  await page.getByTestId('request-detail').getByRole('tab', { name: 'Response' }).click()
  await expect(page.getByTestId('request-detail')).toContainText('SECRET_MISMATCH')
  await shot(page, 'requests-1920')
  await page.setViewportSize({ width: 1280, height: 800 })

  // Status filter: only client errors.
  await page.getByTestId('filter-status').selectOption('4xx')
  await expect(validateRow).toHaveCount(0)
  await expect(verifyRow).toHaveCount(1)

  await verifyRow.getByRole('button').click()
  const detail = page.getByTestId('request-detail')
  // The request as recorded: the key and the secret as previews only.
  await expect(detail).toContainText('"pluginKey": "pk_DemoS...0001"')
  await expect(detail).not.toContainText(DEMO.pluginKey)
  await expect(detail).not.toContainText('sk_Wrong0000000000000000')
  await detail.getByRole('tab', { name: 'Response' }).click()
  await expect(detail).toContainText('PLUGIN_CONNECTION_FAILED')
  await expect(detail).toContainText('SECRET_MISMATCH')
  await detail.getByRole('tab', { name: 'Request' }).click()
  await shot(page, 'requests')

  // Product filter and surface filter reach the server too.
  await page.getByTestId('filter-status').selectOption('')
  await page.getByTestId('filter-surface').selectOption('license-v1')
  await expect(validateRow).toHaveCount(1)
  await expect(verifyRow).toHaveCount(0)
  await page.getByTestId('filter-surface').selectOption('')
  await page.getByTestId('filter-product').selectOption(DEMO.productId)
  await expect(verifyRow).toHaveCount(1)

  // Paused: new requests wait; resumed: they appear.
  await page.getByRole('button', { name: 'Pause' }).click()
  await callService(emulator, 'GET', '/api/license/v1/public-key')
  await callService(emulator, 'POST', '/api/plugin-connections/verify', { ...DEMO_VALUES })
  await expect(page.getByText('paused · 1 new')).toBeVisible()
  await expect(verifyRow).toHaveCount(1)
  await page.getByRole('button', { name: 'Resume' }).click()
  await expect(verifyRow).toHaveCount(2)

  // Clear the log.
  await page.getByRole('button', { name: 'Clear log' }).click()
  await page.getByRole('dialog', { name: 'Clear the request log?' }).getByRole('button', { name: 'Clear log' }).click()
  await expect(page.getByText('No request matches these filters')).toBeVisible()
  const remaining = await emulator.control<{ requests: unknown[] }>('GET', '/requests')
  expect(remaining.body.requests).toEqual([])
})

test('arrow keys move through the log', async ({ page, emulator }) => {
  await callService(emulator, 'GET', '/.well-known/jwks.json')
  await callService(emulator, 'GET', '/api/license/v1/public-key')
  await openApp(page, emulator, '#/requests')
  const rows = page.locator('tbody tr[data-testid^="request-row-"]')
  await expect(rows).toHaveCount(2)
  await rows.first().getByRole('button').click()
  await expect(page.getByTestId('request-detail')).toContainText('/api/license/v1/public-key')
  await page.keyboard.press('ArrowDown')
  await expect(page.getByTestId('request-detail')).toContainText('/.well-known/jwks.json')
  await expect(rows.nth(1).getByRole('button')).toBeFocused()
})

test('under 1280 px the detail sits below the list and a clicked row brings it into view; from 1280 they sit side by side', async ({
  page,
  emulator
}) => {
  for (let i = 0; i < 12; i++) await callService(emulator, 'GET', '/.well-known/jwks.json')
  await callService(emulator, 'GET', '/api/license/v1/public-key')
  await page.setViewportSize({ width: 1180, height: 820 })
  // Each entry opened is fetched once: a click on the path button used to open it twice (button and row).
  const fetched: string[] = []
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (/^\/_emulator\/requests\/\d+$/.test(path)) fetched.push(path)
  })
  await openApp(page, emulator, '#/requests')
  const rows = page.locator('tbody tr[data-testid^="request-row-"]')
  await expect(rows).toHaveCount(13)
  const list = page.getByRole('region', { name: 'Recorded requests', exact: true })
  const detail = page.getByRole('region', { name: 'Request detail', exact: true })
  const top = async (region: typeof list) => ((await region.boundingBox()) as { y: number }).y
  const bottom = async (region: typeof list) => {
    const box = (await region.boundingBox()) as { y: number; height: number }
    return box.y + box.height
  }
  // Stacked: the detail starts below the list, in the window's lower part.
  expect(await top(detail)).toBeGreaterThanOrEqual(await bottom(list))
  expect(await top(detail)).toBeGreaterThan(820 / 2)
  await rows.first().getByRole('button').click()
  await expect(page.getByTestId('request-detail')).toContainText('/api/license/v1/public-key')
  // Its top now at the top of the screen's scrolling area (under the title bar).
  await expect.poll(() => top(detail)).toBeLessThan(200)
  await shot(page, 'requests-1180-detail')
  // The keyboard stays in the list: Enter on a row's button opens it without moving the screen.
  await page.evaluate('document.querySelector(".content").scrollTo(0, 0)')
  await rows.nth(1).getByRole('button').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('request-detail')).toContainText('/.well-known/jwks.json')
  await expect(rows.nth(1).getByRole('button')).toBeInViewport()
  expect(fetched).toHaveLength(2)
  expect(new Set(fetched).size).toBe(2)

  await page.setViewportSize({ width: 1280, height: 720 })
  expect(await top(detail)).toBeLessThan(await bottom(list))
  await page.evaluate('document.querySelector(".content").scrollTo(0, 0)')
  const before = await top(detail)
  await rows.nth(2).getByRole('button').click()
  await expect(page.getByTestId('request-detail')).toContainText('/.well-known/jwks.json')
  expect(await top(detail)).toBe(before)
})

test('the detail names each query parameter and body field the server ignored', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  const validated = await callService(
    emulator,
    'POST',
    '/api/license/v1/validate?_=123',
    { license_key: DEMO.perpetualKey, client_build: 'nightly' },
    {
      'x-svc-app-id': DEMO.appId,
      'x-svc-plugin-key': DEMO.pluginKey,
      'x-svc-plugin-secret': DEMO.pluginSecret
    }
  )
  expect(validated.status).toBe(200)
  await callService(emulator, 'GET', '/api/license/v1/public-key')
  await openApp(page, emulator, '#/requests')
  await page.getByRole('row').filter({ hasText: '/api/license/v1/validate' }).getByRole('button').click()
  const warnings = page.getByTestId('request-warnings')
  await expect(warnings).toContainText('Ignored unknown query parameter "_".')
  await expect(warnings).toContainText('Ignored unknown body field "client_build".')
  await page.getByRole('row').filter({ hasText: '/api/license/v1/public-key' }).getByRole('button').click()
  await expect(page.getByTestId('request-detail')).toContainText('/api/license/v1/public-key')
  await expect(page.getByTestId('request-warnings')).toHaveCount(0)
})

test('a long log is virtualised: few rows in the DOM, the oldest reachable by scrolling, arrow keys past the drawn window', async ({
  page,
  emulator
}) => {
  // The page the UI loads first holds 100 entries; "Load older" pages in the rest.
  for (let batch = 0; batch < 15; batch++) {
    await Promise.all(Array.from({ length: 20 }, () => callService(emulator, 'GET', '/.well-known/jwks.json')))
  }
  await callService(emulator, 'GET', '/api/license/v1/public-key')
  await page.setViewportSize({ width: 1280, height: 700 })
  await openApp(page, emulator, '#/requests')
  const rows = page.locator('tbody tr[data-testid^="request-row-"]')
  await expect(rows.first()).toContainText('/api/license/v1/public-key')
  await page.getByRole('button', { name: 'Load older requests' }).click()
  await expect(page.getByRole('button', { name: 'Load older requests' })).toBeVisible()
  await page.getByRole('button', { name: 'Load older requests' }).click()
  await page.getByRole('button', { name: 'Load older requests' }).click()
  await expect(page.getByRole('button', { name: 'Load older requests' })).toHaveCount(0)
  // 301 entries loaded, a window of them drawn.
  const drawn = await rows.count()
  expect(drawn).toBeGreaterThan(5)
  expect(drawn).toBeLessThan(80)
  // The scroll height still stands for every entry: scrolled to the end, the oldest row is drawn.
  const list = page.getByRole('region', { name: 'Recorded requests', exact: true }).locator('.table-wrap')
  await list.evaluate((element) => element.scrollTo({ top: element.scrollHeight }))
  const listed = (await emulator.control<{ requests: Array<{ id: number }> }>('GET', '/requests?limit=500')).body
    .requests
  const drawnIds = () =>
    rows.evaluateAll((elements) =>
      elements.map((element) => Number(element.getAttribute('data-testid')?.replace('request-row-', '')))
    )
  await expect.poll(drawnIds).toContain(Math.min(...listed.map((entry) => entry.id)))
  // Back at the top, arrow keys walk past the drawn window; focus follows each row.
  await list.evaluate((element) => element.scrollTo({ top: 0 }))
  await expect.poll(drawnIds).toContain(listed[0]!.id)
  await rows.first().getByRole('button').click()
  for (let step = 0; step < 60; step++) await page.keyboard.press('ArrowDown')
  await expect
    .poll(async () => Number(await page.evaluate('document.activeElement?.getAttribute("data-request-id")')))
    .toBe(listed[60]?.id)
  await expect(page.getByTestId('request-detail')).toContainText(`/.well-known/jwks.json`)
  expect(await page.evaluate('document.scrollingElement?.scrollTop ?? 0')).toBe(0)
})
