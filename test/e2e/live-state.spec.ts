import { readFileSync } from 'node:fs'

import { expect, test } from './fixtures'
import { callService, createDeveloper, DEMO, goTo, loadPreset, openApp } from './support'

// The UI shows what the server holds (docs/api.md section 6, the change feed): a change made by a
// script appears on every screen without a reload or a focus, and a reset, a preset or an import
// starts every screen over.

const DAY_S = 86_400

test('changes made through the API with the UI open appear without a reload or a focus', async ({ page, emulator }) => {
  await openApp(page, emulator, '#/developers')
  await expect(page.getByText('No developers yet')).toBeVisible()
  const navigations: string[] = []
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url())
  })

  // A developer created by a script, as the README's walk-through does.
  await createDeveloper(emulator, { email: 'script@studio.test', name: 'Scripted Dev' })
  await expect(page.getByRole('main').getByText('script@studio.test')).toBeVisible()

  // A whole preset loaded by a script: the Overview counts and the first-run steps follow.
  await goTo(page, '#/overview')
  await loadPreset(emulator, 'full-library')
  await expect(page.getByTestId('count-licenses')).toContainText('7')
  await expect(page.getByText('Step 1: Create a developer')).toHaveCount(0)

  // The clock moved by a script: the status bar says so, with no focus event.
  await emulator.control('PUT', '/clock', { offsetS: 3 * DAY_S })
  await expect(page.getByTestId('status-clock')).toContainText('Clock +3 d')

  // Fault rules and a licensing call made by a plugin.
  await emulator.control('PUT', '/faults', { rules: [{ route: '/api/downloads/**', kind: 'latency', ms: 10 }] })
  await expect(page.getByTestId('status-faults')).toContainText('1')
  await goTo(page, `#/credentials?product=${DEMO.productId}`)
  await expect(page.getByTestId('credential-card')).toContainText('never used by a plugin')
  const validated = await callService(
    emulator,
    'POST',
    '/api/license/v1/validate',
    { license_key: DEMO.perpetualKey },
    { 'x-svc-app-id': DEMO.appId, 'x-svc-plugin-key': DEMO.pluginKey, 'x-svc-plugin-secret': DEMO.pluginSecret }
  )
  expect(validated.status).toBe(200)
  await expect(page.getByTestId('credential-card')).not.toContainText('never used by a plugin')
  // Only hash routes changed: the page was never loaded again.
  expect(navigations.every((url) => url.startsWith(emulator.baseUrl) && new URL(url).pathname === '/')).toBe(true)
  expect(await page.evaluate('performance.getEntriesByType("navigation").length')).toBe(1)
})

test('a reset made by a script clears every screen: tester results, connection records, claim links', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/tester')

  // The tester: a verified connection and its record.
  await page.getByLabel('Product', { exact: true }).selectOption(DEMO.productId)
  await page.getByRole('button', { name: 'Fill key and secret (reveal)' }).click()
  const verify = page.getByTestId('step-verify')
  await verify.getByRole('button', { name: 'Verify' }).click()
  await expect(verify.getByTestId('step-verify-outcome')).toHaveText('verified')
  await expect(page.getByTestId('connection-status')).toContainText('verified')

  // The library: a reseller order with its claim link.
  await goTo(page, '#/library')
  await expect(page.getByTestId('library-customer')).toHaveValue('cus_demo')
  await page.getByRole('button', { name: 'Create reseller order' }).click()
  await expect(page.getByTestId('claim-url')).toBeVisible()

  expect((await emulator.control('POST', '/reset')).status).toBe(200)

  await expect(page.getByTestId('claim-url')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Claim as this customer' })).toHaveCount(0)
  await goTo(page, '#/tester')
  await expect(page.getByTestId('step-verify-outcome')).toHaveCount(0)
  await expect(page.getByTestId('tester-pluginSecret')).toHaveValue('')
  await expect(page.getByTestId('connection-status')).toHaveCount(0)
  await goTo(page, '#/developers')
  await expect(page.getByText('No developers yet')).toBeVisible()
  await goTo(page, '#/overview')
  await expect(page.getByTestId('count-licenses')).toContainText('0')
})

test('export, reset and import in the UI reproduce a lapsed subscription and an expired trial at the moved clock', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  const customer = (
    await emulator.control<{ customer: { id: string } }>('POST', '/customers', {
      email: 'lapsing@example.test',
      name: 'Lapsing'
    })
  ).body.customer
  const subscription = await emulator.control<{ subscription: { id: string }; license: { id: string } }>(
    'POST',
    '/purchases',
    {
      customerId: customer.id,
      productId: DEMO.productId,
      kind: 'subscription'
    }
  )
  const trial = await emulator.control<{ license: { id: string } }>('POST', '/purchases', {
    customerId: customer.id,
    productId: DEMO.productId,
    kind: 'trial'
  })
  expect((await emulator.control('POST', `/subscriptions/${subscription.body.subscription.id}/cancel`)).status).toBe(
    200
  )
  await emulator.control('PUT', '/clock', { offsetS: 60 * DAY_S })

  await openApp(page, emulator, '#/library')
  await page.getByTestId('library-customer').selectOption(customer.id)
  const licenses = page.getByTestId('library-licenses')
  await expect(licenses.getByTestId(`license-state-${subscription.body.license.id}`)).toHaveText('expired')
  await expect(licenses.getByTestId(`license-state-${trial.body.license.id}`)).toHaveText('trial expired')

  await goTo(page, '#/scenarios')
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export state' }).click()
  const file = await (await download).path()
  const exported = JSON.parse(readFileSync(file, 'utf8')) as { clock: { offsetS: number } }
  expect(exported.clock.offsetS).toBe(60 * DAY_S)

  await page.getByRole('button', { name: 'Reset', exact: true }).click()
  await page
    .getByRole('dialog', { name: 'Reset the emulator?' })
    .getByRole('button', { name: 'Reset everything' })
    .click()
  await expect(page.getByTestId('clock-offset')).toHaveText('system time')

  await page.getByTestId('import-file').setInputFiles(file)
  await page.getByRole('dialog', { name: 'Import this scenario?' }).getByRole('button', { name: 'Import' }).click()
  await expect(page.getByTestId('clock-offset')).toHaveText('+60 days')

  await goTo(page, '#/library')
  await page.getByTestId('library-customer').selectOption(customer.id)
  await expect(licenses.getByTestId(`license-state-${subscription.body.license.id}`)).toHaveText('expired')
  await expect(licenses.getByTestId(`license-state-${trial.body.license.id}`)).toHaveText('trial expired')
  await expect(page.getByTestId('library-subscriptions')).not.toContainText(/\bactive\b/i)
})

test('the admin URL pasted into the open tab connects with its token (read on hashchange)', async ({
  page,
  emulator
}) => {
  await page.goto(`${emulator.baseUrl}/#/overview`)
  await expect(page.getByRole('heading', { name: 'Admin token needed' })).toBeVisible()
  // Pasting a URL that differs only in its fragment does not load the page again.
  await page.evaluate(`window.location.hash = ${JSON.stringify(new URL(emulator.adminUrl).hash)}`)
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible()
  expect(page.url()).not.toContain(emulator.adminToken)
  expect(await page.evaluate('performance.getEntriesByType("navigation").length')).toBe(1)
})
