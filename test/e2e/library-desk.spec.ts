import { expectTextInsideCards } from './card-edges'
import { expect, test } from './fixtures'
import { expectCleanLayout } from './layout-checks'
import { DEMO, loadPreset, openApp, shot } from './support'

interface License {
  id: string
  key: string
  kind: string
  state: string
  expiresAt: string | null
  maxActivations: number
}

/** Issue 36, everyday actions 1, 2 and 5 (second half) in the Library, over the control plane. */
test('free one seat and change the limit and the expiry from the license row', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/library')
  const licenses = page.getByTestId('library-licenses')
  const row = licenses.getByTestId('license-lic_demo_1')
  await expect(licenses.getByTestId('activation-studio-mac')).toBeVisible()

  // The support desk's case: the customer's old machine is gone; free its seat.
  await licenses.getByRole('button', { name: 'Free seat: deactivate studio-mac' }).click()
  await expect(licenses.getByTestId('activation-studio-mac')).toHaveCount(0)
  const detail = await emulator.control<{ activations: { instanceId: string; deactivatedAt: string | null }[] }>(
    'GET',
    '/licenses/lic_demo_1'
  )
  expect(detail.body.activations.find((a) => a.instanceId === 'studio-mac')?.deactivatedAt).not.toBeNull()

  // One more seat, and an expiry on a date.
  await row.getByRole('button', { name: 'Seats & expiry…' }).click()
  const dialog = page.getByTestId('license-limits-dialog')
  await dialog.getByTestId('license-limit').fill('5')
  await dialog.getByTestId('license-never-expires').uncheck()
  await dialog.getByTestId('license-expires-at').fill('2040-06-30T12:00')
  await expectCleanLayout(page, 'the seats and expiry dialog')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(row).toContainText('/ 5')
  const changed = await emulator.control<{ license: License }>('GET', '/licenses/lic_demo_1')
  expect(changed.body.license.maxActivations).toBe(5)
  const expiresAt = changed.body.license.expiresAt ?? ''
  expect(new Date(expiresAt).getTime()).toBe(new Date('2040-06-30T12:00').getTime())

  // Go to the day it lapses: the clock moves there and the license reads expired.
  await row.getByTestId('go-to-lapse-lic_demo_1').click()
  await expect(licenses.getByTestId('license-state-lic_demo_1')).toHaveText('expired')
  const clock = await emulator.control<{ now: string }>('GET', '/clock')
  expect(Math.abs(Date.parse(clock.body.now) - Date.parse(expiresAt))).toBeLessThan(60_000)
})

test('a trial of a chosen length, and a change a script makes shows in the row', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/library')
  const before = Date.now()
  await page.getByTestId('purchase-kind').selectOption('trial')
  await page.getByTestId('purchase-trial-days').fill('3')
  await page.getByRole('button', { name: 'Start trial' }).click()
  const licenses = page.getByTestId('library-licenses')
  await expect(licenses.locator('tbody tr[data-testid^="license-"]')).toHaveCount(8)
  const list = await emulator.control<{ licenses: License[] }>('GET', `/licenses?productId=${DEMO.productId}`)
  const trial = list.body.licenses.find((license) => license.kind === 'trial' && !license.key.startsWith('DEMO'))
  expect(trial).toBeDefined()
  const days = (Date.parse(trial?.expiresAt ?? '') - before) / 86_400_000
  expect(days).toBeGreaterThan(2.99)
  expect(days).toBeLessThan(3.01)

  // The trial's order cost nothing: no Refund or Chargeback to offer.
  const free = page.getByTestId('library-orders').getByRole('row').filter({ hasText: '$0.00' })
  await expect(free).toHaveCount(2)
  for (const row of await free.all()) await expect(row).toContainText('free: nothing to refund')
  await expect(free.getByRole('button', { name: /Refund|Chargeback/ })).toHaveCount(0)

  // A script changes the limit: the row follows without a reload.
  expect((await emulator.control('PATCH', `/licenses/${trial?.id}`, { maxActivations: 7 })).status).toBe(200)
  await expect(licenses.getByTestId(`license-${trial?.id}`)).toContainText('/ 7')
})

test('subscriptions: an ended one reads ended, and "go to that day" lapses one in its grace period', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'subscription-lifecycle')
  await openApp(page, emulator, '#/library')
  const subscriptions = page.getByTestId('library-subscriptions')
  const lapsed = subscriptions.getByRole('row').filter({ hasText: 'Lapsed Limiter' })
  await expect(lapsed).toContainText('ended')
  await expect(lapsed).not.toContainText('grace until')
  const grace = subscriptions.getByRole('row').filter({ hasText: 'Grace Delay' })
  await expect(grace).toContainText('grace until')
  await expectTextInsideCards(page, 'Library, subscription lifecycle')
  await grace.getByRole('button', { name: 'Go to that day' }).click()
  await expect(grace).toContainText('expired')
  await expect(grace).toContainText('ended')
  await shot(page, 'library-subscriptions-lapsed')
})
