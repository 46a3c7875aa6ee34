import { expect, test } from './fixtures'
import { expectCleanLayout } from './layout-checks'
import { callService, DEMO, goTo, loadPreset, openApp, shot } from './support'

test('the inspector searches the path and query: a license key or an instance id finds its requests', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await callService(emulator, 'GET', '/api/license/v1/public-key')
  await callService(emulator, 'GET', '/api/library?instance_id=qa-box-findme')
  await openApp(page, emulator, '#/requests')
  const rows = page.locator('[data-testid^=request-row-]')
  await expect(rows).toHaveCount(2)
  await page.getByTestId('filter-search').fill('FINDME')
  await expect(rows).toHaveCount(1)
  await expect(rows.first()).toContainText('qa-box-findme')
  // A new request that matches arrives live; one that does not stays out.
  await callService(emulator, 'GET', '/api/library?instance_id=qa-box-findme-2')
  await callService(emulator, 'GET', '/api/license/v1/public-key')
  await expect(rows).toHaveCount(2)
  await shot(page, 'requests-search')
  await page.getByTestId('filter-search').fill('')
  await expect(rows).toHaveCount(4)
})

test('words: rotate key and rotate secret say when to pick each; a subscription is cancelled by name; counts are plural', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, `#/credentials?product=${DEMO.productId}`)
  await expect(page.getByTestId('rotate-hint')).toContainText(
    'Rotate key for a planned change, Rotate secret when the secret leaked or is lost'
  )
  await page.getByRole('button', { name: 'Rotate key' }).click()
  await expect(page.getByRole('dialog', { name: 'Rotate the plugin key?' })).toContainText('A planned rotation')
  await page.getByRole('dialog', { name: 'Rotate the plugin key?' }).getByRole('button', { name: 'Cancel' }).click()

  await goTo(page, `#/tester?product=${DEMO.productId}`)
  await expect(page.getByText('7 licenses of this product to pick from.')).toBeVisible()

  await loadPreset(emulator, 'subscription-lifecycle')
  await goTo(page, '#/library')
  await expect(page.getByRole('button', { name: 'Cancel subscription' }).first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'Cancel', exact: true })).toHaveCount(0)
})

test('after a rotation the tester results of the old credential say the credential changed', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, `#/tester?product=${DEMO.productId}`)
  await page.getByRole('button', { name: 'Fill key and secret (reveal)' }).click()
  await expect(page.getByTestId('tester-pluginSecret')).toHaveValue(DEMO.pluginSecret)
  const verify = page.getByTestId('step-verify')
  await verify.getByRole('button', { name: 'Verify' }).click()
  await expect(verify.getByTestId('step-verify-outcome')).toHaveText('verified')
  await expect(verify.getByTestId('step-verify-stale')).toHaveCount(0)

  await goTo(page, `#/credentials?product=${DEMO.productId}`)
  await page.getByRole('button', { name: 'Rotate secret' }).click()
  await page
    .getByRole('dialog', { name: 'Rotate the plugin secret?' })
    .getByRole('button', { name: 'Rotate secret' })
    .click()
  await page.getByRole('dialog', { name: 'Secret rotated' }).getByRole('button', { name: 'Done' }).click()

  await goTo(page, `#/tester?product=${DEMO.productId}`)
  await expect(verify.getByTestId('step-verify-stale')).toContainText('The credential changed after this run')
  await shot(page, 'tester-credential-changed')
})

test('a table that fits is no tab stop; a toast over a dialog can be dismissed', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, `#/credentials?product=${DEMO.productId}`)
  await expect(page.getByTestId('credential-history')).toBeVisible()
  const stops = await page.evaluate(
    '[...document.querySelectorAll(".table-wrap")].filter((wrap) => wrap.tabIndex === 0 && wrap.scrollWidth <= wrap.clientWidth && wrap.scrollHeight <= wrap.clientHeight).length'
  )
  expect(stops).toBe(0)

  await page.getByTestId('export-credential').click()
  await page
    .getByRole('dialog', { name: 'Export the runtime config' })
    .getByRole('button', { name: 'Reveal and export' })
    .click()
  const dialog = page.getByRole('dialog', { name: 'Secret revealed' })
  for (let n = 0; n < 2; n++) {
    const download = page.waitForEvent('download')
    await dialog.getByTestId('export-json').click()
    await download
  }
  // The same news twice is one toast, counted, inside the dialog, and its Dismiss works.
  await expect(dialog.locator('.toast').filter({ hasText: 'Config saved' })).toHaveCount(1)
  await expect(dialog.locator('.toast').filter({ hasText: 'Config saved' })).toContainText('×2')
  await dialog.locator('.toast').filter({ hasText: 'Config saved' }).getByRole('button', { name: 'Dismiss' }).click()
  await expect(dialog.locator('.toast').filter({ hasText: 'Config saved' })).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Done' }).click()
})

test('200 products and 500 customers: product searches and the customer picker find one at once', async ({
  page,
  emulator
}) => {
  test.setTimeout(120_000)
  await loadPreset(emulator, 'full-library')
  for (let start = 0; start < 200; start += 20) {
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        emulator.control('POST', '/products', {
          developerId: 'dev_demo',
          name: `Bulk Plugin ${String(start + n + 1).padStart(3, '0')}`
        })
      )
    )
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
  await page.setViewportSize({ width: 1024, height: 768 })
  await openApp(page, emulator, '#/developers')
  const productRows = page.getByTestId('product-list').locator('tbody tr[data-testid^=product-]')
  await expect(productRows).toHaveCount(201)
  await page.getByTestId('product-search').fill('bulk plugin 137')
  await expect(productRows).toHaveCount(1)
  await expect(productRows.first()).toContainText('Bulk Plugin 137')
  await expectCleanLayout(page, 'developers, searched')
  await shot(page, 'big-data-product-search')

  await goTo(page, `#/credentials?product=${DEMO.productId}`)
  const picker = page.getByRole('navigation', { name: 'Products' }).getByRole('link')
  await expect(picker).toHaveCount(201)
  await page.getByTestId('product-picker-search').fill('Plugin 042')
  // The match, and the product on screen, which stays listed.
  await expect(picker).toHaveCount(2)
  await expect(picker.filter({ hasText: 'Bulk Plugin 042' })).toHaveCount(1)

  await goTo(page, '#/library')
  const customer = page.getByTestId('library-customer')
  await expect(customer.locator('option')).toHaveCount(501)
  await page.getByTestId('library-customer-search').fill('bulk-423@')
  await expect(customer.locator('option:checked')).toContainText('bulk-423@example.test')
  await expect(page).toHaveURL(/customer=cus_/)
  await page.getByTestId('library-customer-search').fill('Bulk Customer 49')
  // 49 and 490 to 499: the picker lists those and the chosen one.
  await expect(customer.locator('option')).toHaveCount(12)
  await expectCleanLayout(page, 'library, customer search')
  await shot(page, 'big-data-customer-search')
})

test('tables sort by a column: products by name both ways, with aria-sort', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  for (const name of ['Zeta Reverb', 'Alpha Delay', 'Mid Chorus 10', 'Mid Chorus 9']) {
    expect((await emulator.control('POST', '/products', { developerId: 'dev_demo', name })).status).toBe(201)
  }
  await openApp(page, emulator, '#/developers')
  const list = page.getByTestId('product-list')
  const names = () => list.locator('tbody tr .strong').allTextContents()
  await list.getByRole('button', { name: /Product/ }).click()
  await expect(list.getByRole('columnheader', { name: /Product/ })).toHaveAttribute('aria-sort', 'ascending')
  await expect.poll(names).toEqual(['Alpha Delay', 'Demo Synth', 'Mid Chorus 9', 'Mid Chorus 10', 'Zeta Reverb'])
  await list.getByRole('button', { name: /Product/ }).click()
  await expect(list.getByRole('columnheader', { name: /Product/ })).toHaveAttribute('aria-sort', 'descending')
  await expect.poll(names).toEqual(['Zeta Reverb', 'Mid Chorus 10', 'Mid Chorus 9', 'Demo Synth', 'Alpha Delay'])
  await shot(page, 'products-sorted')
})

test('the theme switch: system, light, dark, kept across a reload, whatever the system says', async ({
  page,
  emulator
}) => {
  await page.emulateMedia({ colorScheme: 'light' })
  await openApp(page, emulator)
  const html = page.locator('html')
  const theme = page.getByTestId('theme-switch')
  await expect(html).toHaveAttribute('data-theme', 'light')
  await expect(theme).toHaveAccessibleName('Theme: as the system')
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect(html).toHaveAttribute('data-theme', 'dark')
  await theme.click()
  await expect(theme).toHaveAccessibleName('Theme: light')
  await expect(html).toHaveAttribute('data-theme', 'light')
  await theme.click()
  await expect(theme).toHaveAccessibleName('Theme: dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  const background = await page.evaluate('getComputedStyle(document.body).backgroundColor')
  expect(background).not.toBe('rgb(255, 255, 255)')
  await shot(page, 'overview-dark-chosen')
})

test('shortcuts: g then a letter goes to a screen; Ctrl+K finds a license by key, a customer by email, a product by name', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator)
  await page.keyboard.press('g')
  await page.keyboard.press('l')
  await expect(page.getByRole('heading', { level: 1, name: 'Library viewer' })).toBeVisible()
  await page.keyboard.press('g')
  await page.keyboard.press('r')
  await expect(page.getByRole('heading', { level: 1, name: 'Requests' })).toBeVisible()

  await page.keyboard.press('Control+k')
  const find = page.getByRole('dialog', { name: 'Find' })
  await expect(find).toBeVisible()
  await find.getByTestId('find-input').fill('demo4-expir')
  const results = find.getByRole('link')
  await expect(results).toHaveCount(1)
  await expect(results.first()).toContainText('DEMO4-EXPIR-ED000-00000-00004')
  await expect(results.first()).toContainText('customer@example.test')
  await shot(page, 'find-license')
  await page.keyboard.press('Enter')
  await expect(find).toBeHidden()
  await expect(page).toHaveURL(/#\/library\?customer=cus_demo/)

  await page.keyboard.press('/')
  await find.getByTestId('find-input').fill('Demo Synth')
  await expect(results.filter({ hasText: 'Product' })).toHaveCount(1)
  await results.filter({ hasText: 'Product' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Credentials' })).toBeVisible()
})
