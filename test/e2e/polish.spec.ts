import { expect, test } from './fixtures'
import { callService, createDeveloper, createProduct, DEMO, DEMO_VALUES, goTo, loadPreset, openApp } from './support'

test('a rotated secret no longer reads as verified, and the toast shows above the one-time dialog', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  expect((await callService(emulator, 'POST', '/api/plugin-connections/verify', { ...DEMO_VALUES })).status).toBe(200)
  await openApp(page, emulator, `#/credentials?product=${DEMO.productId}`)
  const status = page.getByTestId('connection-status')
  await expect(status).toContainText('verified')
  await expect(status).not.toContainText('not verified')

  await page.getByRole('button', { name: 'Rotate secret' }).click()
  await page
    .getByRole('dialog', { name: 'Rotate the plugin secret?' })
    .getByRole('button', { name: 'Rotate secret' })
    .click()
  const rotated = page.getByRole('dialog', { name: 'Secret rotated' })
  await expect(rotated).toBeVisible()
  // While a modal dialog is open the toasts sit inside it: not dimmed under its backdrop, not
  // inert (a toast outside the dialog could not be dismissed), and over none of its buttons.
  await expect(rotated.locator('.toast').filter({ hasText: 'Secret rotated' })).toBeVisible()
  await expect(page.locator('.toast-region:popover-open')).toHaveCount(0)
  await rotated.getByRole('button', { name: 'Done' }).click()
  await expect(status).toContainText('not verified since the credential changed')
})

test("the UI's own calls for a product without a credential add no 404 to the request log", async ({
  page,
  emulator
}) => {
  const developer = await createDeveloper(emulator, { email: 'solo@studio.test', name: 'Solo' })
  const product = await createProduct(emulator, developer.id, 'Bare Product')
  await openApp(page, emulator, `#/credentials?product=${product.id}`)
  await expect(page.getByText('No credential yet')).toBeVisible()
  await goTo(page, '#/developers')
  await goTo(page, `#/credentials?product=${product.id}`)
  await expect(page.getByText('No credential yet')).toBeVisible()
  const log = await emulator.control<{ requests: { status: number; path: string }[] }>('GET', '/requests?limit=200')
  expect(log.body.requests.length).toBeGreaterThan(0)
  expect(log.body.requests.filter((entry) => entry.status === 404)).toEqual([])
})

test('the clock field follows the clock, the export names its file, library values read as words', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/scenarios')
  const field = page.getByLabel("Set the emulator's now")
  const before = new Date(await field.inputValue()).getTime()
  await page.getByTestId('clock-controls').getByRole('button', { name: '+30 days' }).click()
  await expect
    .poll(async () => (new Date(await field.inputValue()).getTime() - before) / 86_400_000)
    .toBeGreaterThan(29.9)

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export state' }).click()
  const name = (await download).suggestedFilename()
  expect(name).toMatch(/^emulator-state-.+\.json$/)
  await expect(page.locator('.toast').filter({ hasText: 'State exported' })).toContainText(name)

  await goTo(page, '#/library')
  await expect(page.getByTestId('library-view')).toBeVisible()
  await expect(page.getByTestId('library-screen')).not.toContainText(/\b[a-z]+_[a-z_]+\b(?![^<]*>)/)
})

test('disabled QA actions say why, on hover and on keyboard focus', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/library')
  const toolbar = page.getByTestId('qa-toolbar')
  // The clock runs on system time: its reset is disabled, and says so.
  const reset = toolbar.getByRole('button', { name: 'Reset' })
  await expect(reset).toBeDisabled()
  await expect(reset).toHaveAccessibleDescription('The clock already runs on system time.')
  await reset.focus()
  await expect(toolbar.getByRole('tooltip')).toHaveText('The clock already runs on system time.')
  await toolbar.getByRole('button', { name: 'Buy' }).focus()
  await toolbar.getByRole('button', { name: 'Buy' }).hover()
  await expect(toolbar.getByRole('tooltip')).toBeHidden()
  await reset.hover()
  await expect(toolbar.getByRole('tooltip')).toBeVisible()
})
