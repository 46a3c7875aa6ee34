import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'

import { expect, test } from './fixtures'
import { expectCleanLayout } from './layout-checks'
import { callService, DEMO, expectAccessible, goTo, loadPreset, openApp } from './support'

// Issue 26: the inspector as a QA tool (search, error code, fault rule, the UI's own calls set
// apart, sorting), refunds and chargebacks from the library, the library on the first screen.

/** Screenshots, looked at by hand (.tmp/ is not committed). */
const DIR = join(process.cwd(), '.tmp', 'qa-tools')

const SIZES = [
  [800, 700],
  [1024, 768],
  [1440, 900]
] as const

const PLUGIN_HEADERS = {
  'x-svc-app-id': DEMO.appId,
  'x-svc-plugin-key': DEMO.pluginKey,
  'x-svc-plugin-secret': DEMO.pluginSecret
}

async function check(page: Page, name: string): Promise<void> {
  await expectCleanLayout(page, name)
  await page.screenshot({ path: join(DIR, `${name}.png`) })
  await expectAccessible(page, name)
}

for (const [width, height] of SIZES) {
  test(`the inspector at ${width}x${height}: text search, error codes, the fault that acted, the UI's own calls hidden`, async ({
    page,
    emulator
  }) => {
    mkdirSync(DIR, { recursive: true })
    await page.setViewportSize({ width, height })
    await loadPreset(emulator, 'full-library')
    expect(
      (
        await emulator.control('PUT', '/faults', {
          rules: [
            {
              id: 'limit-deactivate',
              method: 'POST',
              route: '/api/license/v1/deactivate',
              kind: 'rate_limit',
              retryAfterS: 30
            }
          ]
        })
      ).status
    ).toBe(200)
    await callService(
      emulator,
      'POST',
      '/api/license/v1/activate',
      { license_key: 'MAGIC-TRIAL-EXPIRED', instance_id: 'studio-findme-1' },
      PLUGIN_HEADERS
    )
    await callService(
      emulator,
      'POST',
      '/api/license/v1/activate',
      { license_key: 'MAGIC-EXPIRED', instance_id: 'laptop-2' },
      PLUGIN_HEADERS
    )
    await callService(
      emulator,
      'POST',
      '/api/license/v1/deactivate',
      { license_key: DEMO.perpetualKey, instance_id: 'laptop-2' },
      PLUGIN_HEADERS
    )

    // The library screen loads the customer's library: the UI's own calls.
    await openApp(page, emulator, '#/library')
    await expect(page.getByTestId('library-licenses')).toBeVisible()
    await goTo(page, '#/requests')
    const rows = page.locator('tbody tr[data-testid^="request-row-"]')
    await expect(rows).toHaveCount(3)
    await expect(page.getByTestId('request-source')).toHaveCount(0)

    // 403 TRIAL_EXPIRED and 403 EXPIRED differ in the list; the rate limit names its rule.
    const codes = page.getByTestId('request-code')
    await expect(codes).toHaveText(['RATE_LIMITED', 'EXPIRED', 'TRIAL_EXPIRED'])
    const limited = rows.filter({ hasText: '/api/license/v1/deactivate' })
    await expect(limited.getByText('fault', { exact: true })).toBeVisible()
    await limited.getByRole('button').first().click()
    await expect(page.getByTestId('request-fault')).toContainText('limit-deactivate')
    await expect(page.getByTestId('request-fault')).toContainText(
      'rate_limit POST /api/license/v1/deactivate (retry after 30 s)'
    )
    await check(page, `${width}-inspector`)

    // The UI's own calls, when asked for.
    await page.getByTestId('filter-ui-calls').check()
    await expect(page.getByTestId('request-source').first()).toHaveText('UI')
    expect(await rows.count()).toBeGreaterThan(3)
    await page.getByTestId('filter-ui-calls').uncheck()
    await expect(rows).toHaveCount(3)

    // The search reads the bodies: an instance id sent in the JSON body finds its request.
    await page.getByTestId('filter-search').fill('FINDME')
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toContainText('/api/license/v1/activate')
    await expect(rows.first()).toContainText('TRIAL_EXPIRED')
    // Live too: a new request with the text in its body arrives; one without it does not.
    await callService(
      emulator,
      'POST',
      '/api/license/v1/validate',
      { license_key: 'MAGIC-VALID', instance_id: 'studio-findme-2' },
      PLUGIN_HEADERS
    )
    await callService(
      emulator,
      'POST',
      '/api/license/v1/validate',
      { license_key: 'MAGIC-VALID', instance_id: 'elsewhere' },
      PLUGIN_HEADERS
    )
    await expect(rows).toHaveCount(2)
    await expect(rows.first()).toContainText('/api/license/v1/validate')
    await page.getByTestId('filter-search').fill('')
    await expect(rows).toHaveCount(5)

    // Sorted by status, lowest first, then the other way.
    const statusHeader = page.getByRole('columnheader', { name: /Status/ })
    await statusHeader.getByRole('button').click()
    await expect(statusHeader).toHaveAttribute('aria-sort', 'ascending')
    await expect(rows.first().locator('.badge').first()).toHaveText('200')
    await statusHeader.getByRole('button').click()
    await expect(codes.first()).toHaveText('RATE_LIMITED')
  })
}

test('a refund and a chargeback from the library: each behind a confirmation, the license stops validating, the order says which', async ({
  page,
  emulator
}) => {
  mkdirSync(DIR, { recursive: true })
  await loadPreset(emulator, 'full-library')
  const bought = await emulator.control<{ order: { id: string }; license: { key: string } }>('POST', '/purchases', {
    customerId: 'cus_demo',
    productId: DEMO.productId
  })
  expect(bought.status).toBe(201)
  const validate = async () =>
    (
      await callService(
        emulator,
        'POST',
        '/api/license/v1/validate',
        { license_key: bought.body.license.key },
        PLUGIN_HEADERS
      )
    ).body as { code: string }
  expect((await validate()).code).toBe('VALID')

  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height })
    if (width === 800) await openApp(page, emulator, '#/library?customer=cus_demo')
    const order = page.getByTestId(`order-${bought.body.order.id}`)
    await expect(order.getByRole('button', { name: 'Refund' })).toBeVisible()
    await order.scrollIntoViewIfNeeded()
    await check(page, `${width}-library-orders`)
  }

  const order = page.getByTestId(`order-${bought.body.order.id}`)
  await order.getByRole('button', { name: 'Refund' }).click()
  const dialog = page.getByRole('dialog', { name: 'Refund this order?' })
  await expect(dialog).toContainText('REVOKED')
  await check(page, 'refund-dialog')
  // Cancelled: nothing happens.
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  expect((await validate()).code).toBe('VALID')

  await order.getByRole('button', { name: 'Refund' }).click()
  await dialog.getByRole('button', { name: 'Refund order' }).click()
  await expect(order).toContainText('refunded')
  await expect(order.getByRole('button', { name: 'Refund' })).toHaveCount(0)
  expect((await validate()).code).toBe('REVOKED')
  const library = await emulator.control<{ libraryToken: string }>('POST', '/customers/cus_demo/library-token')
  const payload = (await callService(emulator, 'GET', `/api/library?token=${library.body.libraryToken}`)).body as {
    orders: Array<{ id: string; status: string }>
  }
  expect(payload.orders.find((entry) => entry.id === bought.body.order.id)?.status).toBe('refunded')

  // A chargeback of another order, the same way.
  const second = await emulator.control<{ order: { id: string } }>('POST', '/purchases', {
    customerId: 'cus_demo',
    productId: DEMO.productId
  })
  await goTo(page, '#/library?customer=cus_demo')
  const other = page.getByTestId(`order-${second.body.order.id}`)
  await other.getByRole('button', { name: 'Chargeback' }).click()
  await page
    .getByRole('dialog', { name: 'Charge back this order?' })
    .getByRole('button', { name: 'Charge back' })
    .click()
  await expect(other.getByText('chargeback', { exact: true })).toBeVisible()
  await other.scrollIntoViewIfNeeded()
  await check(page, 'library-reversed-orders')
})

test('at 1024x768 the library starts on the first screen, and its licenses sort by a column', async ({
  page,
  emulator
}) => {
  mkdirSync(DIR, { recursive: true })
  await page.setViewportSize({ width: 1024, height: 768 })
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/library?customer=cus_demo')
  const view = page.getByTestId('library-view')
  await expect(view).toBeVisible()
  const top = (await view.boundingBox())?.y ?? Number.POSITIVE_INFINITY
  expect(top).toBeLessThan(768 - 200)
  // The QA controls follow the library.
  const qaTop = (await page.getByTestId('qa-toolbar').boundingBox())?.y ?? 0
  expect(qaTop).toBeGreaterThan(top)
  await page.screenshot({ path: join(DIR, '1024-library-first-screen.png') })

  const licenses = page.getByTestId('library-licenses')
  const keys = licenses
    .locator('tbody tr[data-testid^="license-"] .long-value, tbody tr[data-testid^="license-"] code')
    .first()
  await expect(keys).toBeVisible()
  const header = licenses.getByRole('columnheader', { name: /License key/ })
  await header.getByRole('button').click()
  await expect(header).toHaveAttribute('aria-sort', 'ascending')
  const firstRow = licenses.locator('tbody tr[data-testid^="license-"]').first()
  await expect(firstRow).toContainText('DEMO1-PERPE-TUAL0-00000-00001')
  await header.getByRole('button').click()
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  await expect(firstRow).toContainText('DEMO7-LIMIT-REACH-ED000-00007')
  const state = licenses.getByRole('columnheader', { name: /State/ })
  await state.getByRole('button').click()
  await expect(state).toHaveAttribute('aria-sort', 'ascending')
  await expect(header).not.toHaveAttribute('aria-sort', /.+/)
  await expectCleanLayout(page, 'library sorted by state')
})

test('big data: 200 products, 500 customers, 82 licenses and 400 requests: licenses and requests sort, the search narrows', async ({
  page,
  emulator
}) => {
  test.setTimeout(180_000)
  mkdirSync(DIR, { recursive: true })
  await loadPreset(emulator, 'full-library')
  const productIds: string[] = []
  for (let start = 0; start < 200; start += 20) {
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        emulator.control<{ product: { id: string } }>('POST', '/products', {
          developerId: 'dev_demo',
          name: `Bulk Plugin ${String(start + n + 1).padStart(3, '0')}`
        })
      )
    )
    productIds.push(...made.map((answer) => answer.body.product.id))
  }
  for (let start = 0; start < 500; start += 25) {
    await Promise.all(
      Array.from({ length: 25 }, (_, n) =>
        emulator.control('POST', '/customers', {
          name: `Bulk Customer ${start + n + 1}`,
          email: `bulk-${start + n + 1}@example.test`
        })
      )
    )
  }
  const kinds = ['perpetual', 'subscription', 'trial'] as const
  for (let start = 0; start < 75; start += 15) {
    await Promise.all(
      productIds
        .slice(start, start + 15)
        .map((productId, n) =>
          emulator.control('POST', '/purchases', { customerId: 'cus_demo', productId, kind: kinds[(start + n) % 3] })
        )
    )
  }
  const magic = ['MAGIC-VALID', 'MAGIC-EXPIRED', 'MAGIC-TRIAL-EXPIRED', 'MAGIC-SUSPENDED', 'MAGIC-REVOKED']
  for (let start = 0; start < 400; start += 40) {
    await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        callService(
          emulator,
          'POST',
          '/api/license/v1/activate',
          { license_key: magic[(start + n) % magic.length], instance_id: `bulk-box-${start + n}` },
          PLUGIN_HEADERS
        )
      )
    )
  }

  await page.setViewportSize({ width: 1024, height: 768 })
  await openApp(page, emulator, '#/library?customer=cus_demo')
  const licenses = page.getByTestId('library-licenses')
  await expect(page.getByTestId('show-more-licenses')).toContainText('82')
  // Sorting orders all 82 licenses, not the first page: the first row is the last key of them all.
  const all = await emulator.control<{ licenses: Array<{ key: string }> }>('GET', '/licenses?customerId=cus_demo')
  expect(all.body.licenses).toHaveLength(82)
  const lastKey = all.body.licenses
    .map((license) => license.key)
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' }))
    .at(-1)
  const keyHeader = licenses.getByRole('columnheader', { name: /License key/ })
  await keyHeader.getByRole('button').click()
  await keyHeader.getByRole('button').click()
  await expect(keyHeader).toHaveAttribute('aria-sort', 'descending')
  await expect(licenses.locator('tbody tr[data-testid^="license-"]').first()).toContainText(lastKey ?? 'none')
  await expectCleanLayout(page, 'big library, licenses sorted')
  // The Support card has a contact for every owned product (the preset's and 75 bulk ones): the
  // first 50, as the groups show their rows, then all on request. Four rows come before them.
  const support = page.getByTestId('library-support')
  const moreContacts = support.getByTestId('show-more-product-contacts')
  await expect(moreContacts).toContainText('Showing 50 of')
  const contacts = Number(/of (\d+) product contacts/.exec((await moreContacts.textContent()) ?? '')?.[1])
  expect(contacts).toBeGreaterThan(75)
  await expect(support.locator('dt')).toHaveCount(4 + 50)
  await moreContacts.getByRole('button', { name: 'Show all' }).click()
  await expect(moreContacts).toHaveCount(0)
  await expect(support.locator('dt')).toHaveCount(4 + contacts)
  await expect(support.getByText(/^Bulk Plugin \d{3}$/)).toHaveCount(75)

  await goTo(page, '#/requests')
  const rows = page.locator('tbody tr[data-testid^="request-row-"]')
  await expect(rows.first()).toBeVisible()
  const code = page.getByRole('columnheader', { name: /Code/ })
  await code.getByRole('button').click()
  // Sorted over every loaded row (a page of 100): the first is EXPIRED, alphabetically first.
  await expect(page.getByTestId('request-code').first()).toHaveText('EXPIRED')
  await page.getByTestId('filter-search').fill('bulk-box-123')
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('/api/license/v1/activate')
  await page.getByTestId('filter-search').fill('')
  // The whole page again (the search applies a moment after typing stops), still sorted by code.
  await expect.poll(() => rows.count()).toBeGreaterThan(20)
  await expect(page.getByTestId('request-code').first()).toHaveText('EXPIRED')
  await expectCleanLayout(page, 'big inspector, sorted by code')
  await page.screenshot({ path: join(DIR, '1024-big-inspector.png') })
})
