import { expect, test } from './fixtures'
import { expectCleanLayout } from './layout-checks'
import { callService, DEMO, expectAccessible, loadPreset, openApp } from './support'

interface Created {
  order: { id: string }
  claimToken: string
  claimUrl: string
}

/** Issue 36, everyday action 3: pending reseller orders with their claim links, after a reload too. */
test('pending reseller orders are listed with their claim links after a page reload and an import, and leave once claimed', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  // Made by a script, before the page was opened: only the server can list it.
  const created = (
    await emulator.control<Created>('POST', '/reseller-orders', { productId: DEMO.productId, reseller: 'Loopmasters' })
  ).body
  await openApp(page, emulator, '#/library')
  const pending = page.getByTestId('pending-reseller-orders')
  const row = pending.getByTestId(`pending-order-${created.order.id}`)
  await expect(row.getByTestId('claim-url')).toHaveText(created.claimUrl)
  await expect(row).toContainText('Demo Synth via Loopmasters')

  // One made in the UI joins it; a reload of the page keeps both, with their links.
  await page.getByRole('button', { name: 'Create reseller order' }).click()
  await expect(pending.getByTestId('claim-url')).toHaveCount(2)
  await page.reload()
  await expect(row.getByTestId('claim-url')).toHaveText(created.claimUrl)
  await expect(pending.getByTestId('claim-url')).toHaveCount(2)
  await row.scrollIntoViewIfNeeded()
  await expectCleanLayout(page, 'the pending reseller orders at 1280x800')
  await expectAccessible(page, 'the pending reseller orders')
  await page.setViewportSize({ width: 800, height: 700 })
  await row.scrollIntoViewIfNeeded()
  await expectCleanLayout(page, 'the pending reseller orders at 800x700')

  // The listed link is the working one: its page says it is valid.
  const claimPage = await page.request.get(await row.getByTestId('claim-url').innerText())
  expect(await claimPage.text()).toContain('This claim link is valid')

  // Claimed elsewhere (a customer's own call): it leaves the list without a reload.
  const session = await emulator.control<{ token: string }>('POST', '/customers/cus_demo/session', {})
  const claimed = await callService(
    emulator,
    'POST',
    '/api/library/claim',
    { claim: created.claimToken },
    { authorization: `Bearer ${session.body.token}` }
  )
  expect(claimed.status).toBe(200)
  await expect(row).toHaveCount(0)
  await expect(pending.getByTestId('claim-url')).toHaveCount(1)

  // Export, reset and import (a script's): the order made in the UI is listed again with its link.
  const remaining = await pending.getByTestId('claim-url').innerText()
  const exported = await emulator.control<{ state: unknown }>('GET', '/state')
  expect((await emulator.control('POST', '/reset')).status).toBe(200)
  await expect(pending).toContainText('No reseller order waits for a claim.')
  expect((await emulator.control('PUT', '/state', exported.body.state)).status).toBe(200)
  await expect(pending.getByTestId('claim-url')).toHaveText(remaining)
})
