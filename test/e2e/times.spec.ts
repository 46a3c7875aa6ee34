import { test, expect } from './fixtures'
import { DEMO_VALUES, callService, goTo, loadPreset, openApp, shot } from './support'

test('with the clock 30 days ahead, request times read against the system clock and license times against the emulator clock', async ({ page, emulator }) => {
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
  await expect(licenses).toContainText('emulator clock')
  await expect(licenses).not.toContainText('system clock')
  const expiry = licenses.locator('[data-clock="emulator"] time').first()
  expect(await expiry.getAttribute('title')).toContain('on the emulator clock')
  await shot(page, 'library-clock-shifted')
  expect((await emulator.control('PUT', '/clock', { offsetS: 0 })).status).toBe(200)
})
