import { join } from 'node:path'

import { expect, test } from './fixtures'
import { callService, DEMO_VALUES, goTo, loadPreset, openApp, SCREENSHOT_DIR, shot } from './support'

test('with the clock 30 days ahead, request times read against the system clock and license times against the emulator clock', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  expect((await emulator.control('PUT', '/clock', { offsetS: 30 * 86_400 })).status).toBe(200)
  expect((await callService(emulator, 'POST', '/api/plugin-connections/verify', { ...DEMO_VALUES })).status).toBe(200)
  await openApp(page, emulator)

  // A request made a moment ago is "now" on the system clock, not "30 days ago" on the shifted one.
  const recent = page.getByTestId('recent-requests').locator('[data-clock="system"]').first()
  await expect(recent).toBeVisible()
  const requestHint = (await recent.locator('.moment__hint').textContent()) ?? ''
  expect(requestHint).toMatch(/^·\u00a0(now|\d+ seconds? ago|1 minute ago), system clock$/)
  expect(await recent.locator('time').getAttribute('title')).toContain('on the system clock')
  // The absolute time is the real one: today's date on this machine, not 30 days on.
  const requestAt = await recent.locator('time').getAttribute('datetime')
  expect(Math.abs(Date.parse(requestAt ?? '') - Date.now())).toBeLessThan(10 * 60_000)

  // License expiries, in the library, against the emulator clock, and they say so.
  await goTo(page, '#/library')
  const licenses = page.getByTestId('library-licenses')
  await expect(licenses.locator('[data-clock="emulator"]').first()).toBeVisible()
  await expect(licenses).not.toContainText('system clock')
  // The trial ends 7 days after the preset was loaded: 23 days before the emulator's now (30 days
  // on), where the system clock would say "in 7 days". (The subscription license would renew.)
  const expiry = licenses.getByTestId('license-lic_demo_3').locator('[data-clock="emulator"]')
  await expect(expiry.locator('.moment__hint')).toHaveText('·\u00a023 days ago')
  expect(await expiry.locator('time').getAttribute('title')).toContain('23 days ago on the emulator clock')
  // A full date names its clock while the clock is moved.
  await expect(page.getByTestId('library-profile').locator('.moment__hint')).toContainText('emulator clock')
  await shot(page, 'library-clock-shifted')
  await licenses.screenshot({ path: join(SCREENSHOT_DIR, 'library-licenses-clock-shifted.png') })
  expect((await emulator.control('PUT', '/clock', { offsetS: 0 })).status).toBe(200)
})
