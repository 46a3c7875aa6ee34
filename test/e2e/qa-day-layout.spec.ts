import { expectTextInsideCards } from './card-edges'
import { expect, test } from './fixtures'
import { expectCleanLayout } from './layout-checks'
import { DEMO, expectAccessible, goTo, loadPreset, openApp } from './support'

/**
 * Issue 36, "held to": the Library, the connection tester, Credentials and the Overview at the
 * widths people use, not only those used so far (1280 is the most common laptop window).
 */
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1536, height: 864 },
  { width: 912, height: 600 },
  { width: 1920, height: 1080 }
]

test('the Library keeps the profile, support and product contacts inside their cards at every width', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  // A customer as the UI makes them: a generated ID and reference, a longer email.
  const customer = await emulator.control<{ customer: { id: string } }>('POST', '/customers', {
    email: 'customer12-mhx3k2p9@example.test',
    name: 'Test Customer 12'
  })
  await emulator.control('POST', '/purchases', { customerId: customer.body.customer.id, productId: 'prod_demo_synth' })
  await openApp(page, emulator, `#/library?customer=${customer.body.customer.id}`)
  await expect(page.getByTestId('library-profile')).toContainText('customer12-mhx3k2p9@example.test')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    const where = `Library at ${size.width}x${size.height}`
    await page.getByTestId('library-support').scrollIntoViewIfNeeded()
    await expectTextInsideCards(page, where)
    await expectCleanLayout(page, where)
  }
  await expectAccessible(page, 'Library')
})

test('the tester, Credentials and the Overview: clean at every width, and the same server state after navigating away and back', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/overview')
  const screens = [
    { hash: '#/overview', ready: page.getByTestId('count-licenses') },
    { hash: `#/credentials?product=${DEMO.productId}`, ready: page.getByTestId('connection-status') },
    { hash: `#/tester?product=${DEMO.productId}`, ready: page.getByTestId('connection-status') }
  ]
  for (const screen of screens) {
    await goTo(page, screen.hash)
    await expect(screen.ready).toBeVisible()
    for (const size of SIZES) {
      await page.setViewportSize(size)
      const where = `${screen.hash} at ${size.width}x${size.height}`
      await expectCleanLayout(page, where)
      await expectTextInsideCards(page, where)
    }
    await page.setViewportSize({ width: 1280, height: 800 })
    await expectAccessible(page, screen.hash)
  }
  // Away and back: the tester shows what the server has (the record, the standing of a license).
  await goTo(page, `#/tester?product=${DEMO.productId}`)
  await expect(page.getByTestId('connection-status')).toContainText('Never verified')
  await goTo(page, '#/library')
  await expect(page.getByTestId('library-licenses')).toBeVisible()
  await goTo(page, `#/tester?product=${DEMO.productId}`)
  await expect(page.getByTestId('connection-status')).toContainText('Never verified')
  await expect(page.locator('datalist option[value="DEMO4-EXPIR-ED000-00000-00004"]')).toHaveText(/expired/)
})
