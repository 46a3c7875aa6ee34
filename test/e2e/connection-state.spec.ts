import { expect, test } from '@playwright/test'

import { RestartableServe } from './restartable-serve'
import { shot } from './support'

const serve = new RestartableServe()

test.beforeAll(async () => {
  await serve.start()
})

test.afterAll(async () => {
  await serve.dispose()
})

test('the UI says when the server stops, disables what needs it, and reconnects by itself when it is back', async ({
  page
}) => {
  await page.goto(serve.adminUrl)
  const pill = page.getByTestId('server-pill')
  await expect(pill).toHaveAttribute('data-state', 'connected')
  await expect(pill).toContainText(`Serving ${new URL(serve.baseUrl).host}`)
  await expect(page.getByTestId('server-card')).toContainText('Running')
  await expect(page.getByTestId('count-developers')).toContainText('0')
  const create = page.getByTestId('first-run').getByRole('button', { name: 'Create developer' })
  await expect(create).toBeEnabled()
  await expect(page.getByTestId('connection-banner')).toHaveCount(0)

  // Stopped: the event stream ends, the banner says since when, and stays true on every screen.
  await serve.stop()
  const banner = page.getByTestId('connection-banner')
  await expect(banner).toBeVisible()
  await expect(pill).toHaveAttribute('data-state', 'disconnected')
  await expect(pill).toContainText('Disconnected since')
  await expect(banner).toContainText('Disconnected since')
  await expect(banner).toContainText('system clock')
  await expect(page.getByTestId('server-card')).toContainText('Not answering')
  await expect(page.getByTestId('server-card')).not.toContainText('Running')
  await expect(page.getByText('last read before the server stopped answering')).toBeVisible()
  await expect(create).toBeDisabled()
  await expect(create).toHaveAttribute('title', /not answering/)
  await shot(page, 'connection-disconnected')
  await page.getByRole('link', { name: 'Scenarios' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Scenarios' })).toBeVisible()
  await expect(banner).toBeVisible()
  await expect(page.getByRole('button', { name: 'Export state' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Export state' })).toHaveAttribute('title', /not answering/)
  // A manual check while it is down keeps it down.
  await banner.getByRole('button', { name: 'Try now' }).click()
  await expect(pill).toHaveAttribute('data-state', 'disconnected')

  // Meanwhile the database changes (another run of it, on another port the UI does not know).
  await serve.changeWhileStopped(async (control) => {
    const created = await control('POST', '/developers', { email: 'meanwhile@example.test', name: 'Meanwhile Studio' })
    expect(created.status).toBe(201)
  })

  // Back on the same port: no click needed; the screens show the current data again.
  await serve.start()
  await expect(pill).toHaveAttribute('data-state', 'connected')
  await expect(banner).toHaveCount(0)
  await expect(page.getByText('Reconnected to the emulator')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Export state' })).toBeEnabled()
  // The cards that could not load while it was down loaded again.
  await expect(page.getByText('Could not list presets')).toHaveCount(0)
  await expect(page.getByTestId('fault-editor').getByRole('button', { name: 'Empty rule' })).toBeEnabled()
  await page.getByRole('link', { name: 'Overview' }).click()
  await expect(page.getByTestId('count-developers')).toContainText('1')
  await expect(page.getByText('last read before the server stopped answering')).toHaveCount(0)
  await expect(page.getByTestId('recent-requests')).not.toContainText('Could not')
  await expect(page.getByTestId('server-card')).toContainText('Running')
})
