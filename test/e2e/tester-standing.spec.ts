import { expect, test } from './fixtures'
import { callService, DEMO, DEMO_VALUES, loadPreset, openApp } from './support'

/** Issue 36, defects 5, 7 and 9 (the Activate step's error) on the connection tester. */
test('the connection status record reads as the Credentials screen does, and follows a verify made by a script', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/tester')
  await page.getByLabel('Product', { exact: true }).selectOption(DEMO.productId)
  const record = page.getByTestId('connection-status')
  // Not loading bars for ever: the product was never verified.
  await expect(record).toContainText('Never verified')
  // A plugin (here a script) verifies: the record shows it without a click in the tester.
  const verified = await callService(emulator, 'POST', '/api/plugin-connections/verify', DEMO_VALUES)
  expect(verified.status).toBe(200)
  await expect(record).toContainText('verified', { timeout: 3000 })
  await expect(record).toContainText('1 ok, 0 failed')
})

test('the license picker says how each license stands now, as the Library does', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/tester')
  await page.getByLabel('Product', { exact: true }).selectOption(DEMO.productId)
  const option = (key: string) => page.locator(`datalist option[value="${key}"]`)
  await expect(option('DEMO4-EXPIR-ED000-00000-00004')).toHaveText(/expired/)
  await expect(option('DEMO4-EXPIR-ED000-00000-00004')).not.toHaveText(/active/)
  await expect(option('DEMO5-REVOK-ED000-00000-00005')).toHaveText(/revoked/)
  await expect(option('DEMO3-TRIAL-00000-00000-00003')).toHaveText(/trial, valid/)
  // A script moves the clock past the trial's end: the picker follows.
  expect((await emulator.control('PUT', '/clock', { offsetS: 60 * 86_400 })).status).toBe(200)
  await expect(option('DEMO3-TRIAL-00000-00000-00003')).toHaveText(/trial, trial expired/, { timeout: 3000 })
  await expect(option('DEMO1-PERPE-TUAL0-00000-00001')).toHaveText(/perpetual, valid/)
})

test('a refused activation says its error once', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/tester')
  await page.getByLabel('Product', { exact: true }).selectOption(DEMO.productId)
  await page.getByRole('button', { name: 'Fill key and secret (reveal)' }).click()
  await expect(page.getByTestId('tester-pluginSecret')).toHaveValue(DEMO.pluginSecret)
  await page.getByTestId('tester-license-key').fill('DEMO5-REVOK-ED000-00000-00005')
  const activate = page.getByTestId('step-activate')
  await activate.getByRole('button', { name: 'Activate' }).click()
  await expect(activate.getByTestId('step-activate-outcome')).toHaveText('REVOKED')
  await expect(activate.getByText('The license has been revoked.', { exact: true })).toHaveCount(1)
})
