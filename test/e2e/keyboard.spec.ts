import type { Locator, Page } from '@playwright/test'

import { expect, test } from './fixtures'
import { expectAccessible, openApp } from './support'

/** Presses Tab (only Tab) until the control has focus; fails when it is not reachable. */
async function tabTo(page: Page, control: Locator, max = 120): Promise<void> {
  for (let presses = 0; presses < max; presses++) {
    if (await control.evaluate((element) => element === element.ownerDocument.activeElement).catch(() => false)) return
    await page.keyboard.press('Tab')
  }
  await expect(control, `reached by Tab within ${max} presses`).toBeFocused({ timeout: 1 })
}

/** Moves to a screen the way a keyboard user does: Tab to its link in the navigation, Enter. */
async function openScreen(page: Page, name: string, title: string): Promise<void> {
  await tabTo(page, page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeFocused()
}

test('the core journey by keyboard alone: developer, product, credential, verify, purchase, activate', async ({
  page,
  emulator
}) => {
  await openApp(page, emulator)

  // A developer.
  await openScreen(page, 'Developers', 'Developers & products')
  await tabTo(page, page.getByRole('textbox', { name: 'Email' }))
  await page.keyboard.type('keys@studio.test')
  await page.keyboard.press('Tab')
  await page.keyboard.type('Keyboard Dev')
  await tabTo(page, page.getByRole('button', { name: 'Create developer' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('combobox', { name: 'Acting as' })).toHaveValue(/.+/)
  await expect(page.getByRole('combobox', { name: 'Acting as' }).locator('option:checked')).toHaveText(/Keyboard Dev/)

  // A product.
  await tabTo(page, page.getByRole('textbox', { name: 'Product name' }))
  await page.keyboard.type('Keyboard Synth')
  await tabTo(page, page.getByRole('button', { name: 'Create product' }))
  await page.keyboard.press('Enter')
  await expect(page.getByText('Keyboard Synth').first()).toBeVisible()

  // A credential: created, shown once, and carried to the tester.
  await openScreen(page, 'Credentials', 'Credentials')
  await tabTo(page, page.getByRole('button', { name: 'Create credential' }))
  await page.keyboard.press('Enter')
  // The confirmation takes a reason (focused); Enter confirms.
  await expect(
    page.getByRole('dialog', { name: 'Create the credential' }).getByLabel('Reason (optional)')
  ).toBeFocused()
  await page.keyboard.type('keyboard journey')
  await page.keyboard.press('Enter')
  const reveal = page.getByTestId('reveal-dialog')
  await expect(reveal).toBeVisible()
  await expectAccessible(page, 'keyboard journey: one-time reveal')
  await tabTo(page, reveal.getByRole('button', { name: 'Test in connection tester' }))
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Connection tester' })).toBeVisible()

  // Verify.
  const verify = page.getByTestId('step-verify')
  await tabTo(page, verify.getByRole('button', { name: 'Verify' }))
  await page.keyboard.press('Enter')
  await expect(verify.getByTestId('step-verify-outcome')).toHaveText('verified')
  await expectAccessible(page, 'keyboard journey: verified')

  // A purchase, for a new customer.
  await openScreen(page, 'Library', 'Library viewer')
  await tabTo(page, page.getByRole('button', { name: 'New customer' }))
  await page.keyboard.press('Enter')
  // The dialog offers a name and an email; Enter in its first field keeps them.
  await expect(page.getByRole('dialog', { name: 'New customer' })).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('library-customer')).toHaveValue(/.+/)
  const toolbar = page.getByTestId('qa-toolbar')
  await tabTo(page, toolbar.getByRole('button', { name: 'Buy' }))
  await page.keyboard.press('Enter')
  const licenses = page.getByTestId('library-licenses')
  await expect(licenses.locator('tbody tr[data-testid^="license-"]')).toHaveCount(1)
  const licenseKey = (await licenses.locator('.long-value__text').first().textContent())!.trim()
  expect(licenseKey).toMatch(/^[A-Z0-9-]{10,}$/)
  await expectAccessible(page, 'keyboard journey: purchased')

  // Activate it from the tester, typing the serial as the customer would.
  await openScreen(page, 'Connection tester', 'Connection tester')
  await tabTo(page, page.getByTestId('tester-license-key'))
  await page.keyboard.type(licenseKey)
  const activate = page.getByTestId('step-activate')
  await tabTo(page, activate.getByRole('button', { name: 'Activate' }))
  await page.keyboard.press('Enter')
  await expect(activate.getByTestId('step-activate-outcome')).toHaveText('activated (new slot)')
  await expectAccessible(page, 'keyboard journey: activated')
})
