import { expect, test } from './fixtures'
import { DEMO, loadPreset, openApp, shot } from './support'

test('the library shows every group as a customer sees it, and QA actions change it', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/library')

  await expect(page.getByTestId('library-customer')).toHaveValue('cus_demo')
  const products = page.getByTestId('library-products')
  await expect(products.getByTestId(`library-product-${DEMO.productId}`)).toContainText(DEMO.productName)
  const downloads = products.getByRole('link', { name: /Windows|macOS|Linux/ })
  await expect(downloads).toHaveCount(3)
  await expect(downloads.first()).toHaveAttribute('href', /\/api\/downloads\/file_demo_[a-z]+\?download_token=/)

  const licenses = page.getByTestId('library-licenses')
  await expect(licenses.locator('tbody tr[data-testid^="license-"]')).toHaveCount(7)
  await expect(licenses.getByTestId('license-state-lic_demo_1')).toHaveText('valid')
  await expect(licenses.getByTestId('license-state-lic_demo_4')).toHaveText('expired')
  await expect(licenses.getByTestId('license-state-lic_demo_5')).toHaveText('revoked')
  await expect(licenses.getByTestId('license-state-lic_demo_6')).toHaveText('suspended')
  await expect(licenses.getByTestId('activation-studio-mac')).toContainText('Studio Mac')
  await expect(page.getByTestId('library-subscriptions')).toContainText('monthly')
  await expect(page.getByTestId('library-orders')).toContainText('$99.00')
  await expect(page.getByTestId('library-profile')).toContainText('customer@example.test')
  await expect(page.getByTestId('library-preferences')).toContainText('subscribed')
  await expect(page.getByTestId('library-support')).toContainText('support@demo-audio.example.test')
  await shot(page, 'library')

  // Suspend and reinstate a license.
  const first = licenses.getByTestId('license-lic_demo_1')
  await first.getByRole('button', { name: 'Suspend' }).click()
  await expect(licenses.getByTestId('license-state-lic_demo_1')).toHaveText('suspended')
  await first.getByRole('button', { name: 'Reinstate' }).click()
  await expect(licenses.getByTestId('license-state-lic_demo_1')).toHaveText('valid')
  // Expire one now, as the emulator clock sees it.
  await first.getByRole('button', { name: 'Expire now' }).click()
  await expect(licenses.getByTestId('license-state-lic_demo_1')).toHaveText('expired')

  // A new trial, then the clock moves past its end.
  await page.getByTestId('purchase-kind').selectOption('trial')
  await page.getByRole('button', { name: 'Start trial' }).click()
  await expect(licenses.locator('tbody tr[data-testid^="license-"]')).toHaveCount(8)
  await page.getByTestId('clock-controls').getByRole('button', { name: '+30 days' }).click()
  await expect(page.getByTestId('clock-offset')).toHaveText('+30 days')
  await expect(licenses.getByText('trial expired')).toHaveCount(2)
  const clock = await emulator.control<{ offsetS: number }>('GET', '/clock')
  expect(clock.body.offsetS).toBe(30 * 86_400)

  // A reseller order with its claim link, claimed by this customer.
  await page.getByRole('button', { name: 'Create reseller order' }).click()
  await expect(page.getByTestId('claim-url')).toContainText('/api/library/claim?claim=')
  await page.getByRole('button', { name: 'Claim as this customer' }).click()
  // Claimed, it no longer waits: the pending list is empty again.
  await expect(page.getByTestId('pending-reseller-orders')).toContainText('No reseller order waits for a claim.')
  await expect(licenses.locator('tbody tr[data-testid^="license-"]')).toHaveCount(9)
  await expect(page.getByTestId('library-orders')).toContainText('via Plugin Boutique')

  // The in-plugin web view payload and the raw JSON.
  await page.getByRole('tab', { name: 'In-plugin web view' }).click()
  await expect(page.getByTestId('webview-preview')).toContainText(`Signed in as ${DEMO.customerName}`)
  await expect(page.getByTestId('webview-preview')).toContainText('"library_url"')
  await page.getByRole('tab', { name: 'Raw JSON' }).click()
  await expect(page.getByTestId('library-raw')).toContainText('"download_token"')
  await expect(page.getByTestId('library-raw')).toContainText('"marketing_preferences"')
})

test('a pasted library token opens the same library; a bad one says why', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  const issued = await emulator.control<{ libraryToken: string }>('POST', '/customers/cus_demo/library-token')
  await openApp(page, emulator, '#/library')
  await expect(page.getByTestId('library-licenses')).toBeVisible()

  await page.getByLabel('…or a library token').fill('not-a-token')
  await page.getByRole('button', { name: 'Open' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'LIBRARY_TOKEN_INVALID' }).first()).toBeVisible()

  await page.getByLabel('…or a library token').fill(issued.body.libraryToken)
  await page.getByRole('button', { name: 'Open' }).click()
  await expect(page.getByTestId('library-profile')).toContainText('customer@example.test')
})

test('a customer without purchases sees empty groups', async ({ page, emulator }) => {
  await emulator.control('POST', '/customers', { email: 'new@example.test', name: 'New Customer' })
  await openApp(page, emulator, '#/library')
  await expect(page.getByTestId('library-products')).toContainText('No products')
  await expect(page.getByTestId('library-licenses')).toContainText('No licenses')
  await expect(page.getByTestId('library-orders')).toContainText('No orders')
})

test('subscriptions walk their lifecycle from the QA actions and the clock; lapsed products lose their downloads', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'subscription-lifecycle')
  await openApp(page, emulator, '#/library')
  await expect(page.getByTestId('library-customer')).toHaveValue('cus_demo')
  const subscriptions = page.getByTestId('library-subscriptions')
  const products = page.getByTestId('library-products')
  await expect(subscriptions).toContainText('past due')
  await expect(subscriptions).toContainText('grace until')
  await expect(subscriptions).toContainText('canceled')
  await expect(subscriptions).toContainText('expired')
  // The ended ones list no links; the live ones do.
  await expect(
    products.getByTestId('library-product-prod_demo_limiter').getByTestId('entitlement-lapsed')
  ).toBeVisible()
  await expect(products.getByTestId('library-product-prod_demo_compressor').getByRole('link')).toHaveCount(0)
  await expect(
    products.getByTestId('library-product-prod_demo_delay').getByRole('link', { name: /Windows/ })
  ).toHaveCount(1)
  await shot(page, 'library-subscription-lifecycle')

  // Demo Synth's renewal payment fails: past due, still downloadable during the grace period.
  const synth = page.getByTestId('subscription-actions-sub_demo_1')
  await synth.getByRole('button', { name: 'Payment fails' }).click()
  await expect(synth).toContainText('past due')
  await expect(synth.getByRole('button', { name: 'Payment succeeds' })).toBeEnabled()
  await expect(
    products.getByTestId(`library-product-prod_demo_synth`).getByRole('link', { name: /Windows/ })
  ).toHaveCount(1)

  // Past the grace period it expires and its downloads go; renew now brings them back.
  await page.getByTestId('clock-controls').getByRole('button', { name: '+30 days' }).click()
  await expect(synth).toContainText('expired')
  await expect(products.getByTestId('library-product-prod_demo_synth').getByTestId('entitlement-lapsed')).toBeVisible()
  // The buttons are those the server's answer offers (availableActions): an ended one only renews.
  await expect(synth.getByRole('button', { name: 'Payment succeeds' })).toBeDisabled()
  await expect(synth.getByRole('button', { name: 'Resume' })).toBeDisabled()
  await expect(synth.getByRole('button', { name: 'Cancel subscription' })).toBeDisabled()
  await synth.getByRole('button', { name: 'Renew now' }).click()
  await expect(synth).toContainText('active')
  await expect(
    products.getByTestId('library-product-prod_demo_synth').getByRole('link', { name: /Windows/ })
  ).toHaveCount(1)

  // Cancel, then resume: the QA actions follow the state.
  await synth.getByRole('button', { name: 'Cancel subscription' }).click()
  await expect(synth.getByRole('button', { name: 'Resume' })).toBeEnabled()
  // Set to cancel, it is not charged; a repeated cancel is accepted (it changes nothing), so it stays offered.
  await expect(synth.getByRole('button', { name: 'Payment fails' })).toBeDisabled()
  await expect(synth.getByRole('button', { name: 'Cancel subscription' })).toBeEnabled()
  await synth.getByRole('button', { name: 'Resume' }).click()
  await expect(synth.getByRole('button', { name: 'Cancel subscription' })).toBeEnabled()
  const standing = await emulator.control<{ standing: { state: string; cancelAtPeriodEnd: boolean } }>(
    'GET',
    '/subscriptions/sub_demo_1'
  )
  expect(standing.body.standing).toMatchObject({ state: 'active', cancelAtPeriodEnd: false })
  await page.getByTestId('qa-toolbar').getByText('renewals, cancellation').scrollIntoViewIfNeeded()
  await shot(page, 'library-subscription-actions')
})
