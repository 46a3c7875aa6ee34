import { expect, test } from './fixtures'
import { goTo, openApp, shot } from './support'

test('a moved clock and active faults show on every screen and in the window title, with links to change them', async ({
  page,
  emulator
}) => {
  await openApp(page, emulator)
  const bar = page.getByTestId('status-bar')
  await expect(bar.getByTestId('status-clock')).toContainText('Clock: system time')
  await expect(bar.getByTestId('status-faults')).toContainText('No fault rules')
  await expect(page).toHaveTitle('Overview · Plugin License Emulator')

  // Moved from the UI: the bar and the title follow at once.
  await goTo(page, '#/scenarios')
  await page.getByTestId('clock-card').getByRole('button', { name: '+30 days' }).click()
  await expect(bar.getByTestId('status-clock')).toContainText('Clock +30 d')
  await expect(page).toHaveTitle('Scenarios & settings · Clock +30 d · Plugin License Emulator')

  // Two rules applied in the editor.
  const editor = page.getByTestId('fault-editor')
  await editor.getByRole('button', { name: 'Verify answers 503' }).click()
  await editor.getByRole('button', { name: 'Slow licensing (2 s)' }).click()
  await editor.getByTestId('apply-faults').click()
  await expect(bar.getByTestId('status-faults')).toContainText('2 fault rules active')

  for (const hash of ['#/overview', '#/developers', '#/credentials', '#/tester', '#/library', '#/requests']) {
    await goTo(page, hash)
    await expect(bar).toContainText('Clock +30 d')
    await expect(bar).toContainText('2 fault rules active')
    await expect(page).toHaveTitle(/ · Clock \+30 d · 2 fault rules active · Plugin License Emulator$/)
  }
  await shot(page, 'status-bar')

  // The links lead to where they are changed.
  await bar.getByRole('link', { name: 'Edit faults' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Scenarios & settings' })).toBeVisible()
  await goTo(page, '#/overview')
  await bar.getByRole('link', { name: 'Library clock' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Library viewer' })).toBeVisible()

  // Changed from outside (a test script, the CLI): the bar catches up when the window gets focus.
  expect((await emulator.control('DELETE', '/faults')).status).toBe(200)
  expect((await emulator.control('PUT', '/clock', { offsetS: -3600 })).status).toBe(200)
  await page.evaluate('window.dispatchEvent(new Event("focus"))')
  await expect(bar.getByTestId('status-faults')).toContainText('No fault rules')
  await expect(bar.getByTestId('status-clock')).toContainText('Clock −1 h')
  await expect(page).toHaveTitle('Library viewer · Clock −1 h · Plugin License Emulator')
  expect((await emulator.control('PUT', '/clock', { offsetS: 0 })).status).toBe(200)
})
