import { expect, test } from './fixtures'
import { DEMO, goTo, loadPreset, openApp, shot } from './support'

test('verify, activate, validate and deactivate; the library and the inspector show it', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/tester')

  await page.getByLabel('Product', { exact: true }).selectOption(DEMO.productId)
  await expect(page.getByTestId('tester-productId')).toHaveValue(DEMO.productId)
  await expect(page.getByTestId('tester-appId')).toHaveValue(DEMO.appId)
  await page.getByRole('button', { name: 'Fill key and secret (reveal)' }).click()
  await expect(page.getByTestId('tester-pluginKey')).toHaveValue(DEMO.pluginKey)
  await expect(page.getByTestId('tester-pluginSecret')).toHaveValue(DEMO.pluginSecret)

  // A wrong secret: the tester says which value is wrong.
  await page.getByTestId('tester-pluginSecret').fill('sk_NotTheSecret000000000000')
  const verify = page.getByTestId('step-verify')
  await verify.getByRole('button', { name: 'Verify' }).click()
  await expect(verify.getByTestId('step-verify-outcome')).toHaveText('PLUGIN_CONNECTION_FAILED')
  await expect(verify.getByTestId('step-verify-diagnosis')).toContainText(
    'The plugin secret does not match the plugin key.'
  )
  await expect(verify.getByTestId('step-verify-diagnosis')).toContainText('SECRET_MISMATCH')
  await expect(page.getByTestId('tester-credential').locator('.field--invalid')).toContainText('Plugin secret')
  await expect(page.getByTestId('connection-status')).toContainText('failed')

  // The right one.
  await page.getByTestId('tester-pluginSecret').fill(DEMO.pluginSecret)
  await verify.getByRole('button', { name: 'Verify' }).click()
  await expect(verify.getByTestId('step-verify-outcome')).toHaveText('verified')
  await expect(page.getByTestId('tester-credential').locator('.field--invalid')).toHaveCount(0)
  await expect(page.getByTestId('connection-status')).toContainText('verified')
  await expect(page.getByTestId('connection-status')).toContainText('1 ok, 1 failed')

  // Activate on a new instance: a signed license token, verified against the JWKS.
  await page.getByTestId('tester-license-key').fill(DEMO.perpetualKey)
  await page.getByTestId('tester-instance-id').fill('qa-e2e-box')
  const activate = page.getByTestId('step-activate')
  await activate.getByRole('button', { name: 'Activate' }).click()
  await expect(activate.getByTestId('step-activate-outcome')).toHaveText('activated (new slot)')
  await expect(activate.getByTestId('response-body')).toContainText('"instance_id": "qa-e2e-box"')
  await activate.getByRole('tab', { name: /License token/ }).click()
  await expect(activate.getByTestId('token-verdict')).toContainText('Signature verified')
  await expect(activate.getByTestId('token-report')).toContainText(`aud is the App ID ${DEMO.appId}`)
  await expect(activate.getByTestId('token-report')).toContainText('The nonce sent is echoed')
  await activate.getByRole('tab', { name: 'Request' }).click()
  await expect(activate).toContainText('x-svc-plugin-secret')
  await expect(activate).not.toContainText(DEMO.pluginSecret)
  await activate.getByRole('tab', { name: /License token/ }).click()
  // Only the step run last shows its details; verify folded to its summary.
  await expect(verify.getByRole('tab')).toHaveCount(0)
  await expect(verify.getByTestId('step-verify-outcome')).toHaveText('verified')
  await page.evaluate('document.querySelector(".content").scrollTo(0, 0)')
  await shot(page, 'tester-activated')
  await page.setViewportSize({ width: 1920, height: 1080 })
  await shot(page, 'tester-activated-1920')
  await page.setViewportSize({ width: 1280, height: 800 })

  const validate = page.getByTestId('step-validate')
  await validate.getByRole('button', { name: 'Validate' }).click()
  await expect(validate.getByTestId('step-validate-outcome')).toHaveText('VALID')

  // The customer's library shows the new activation.
  await goTo(page, '#/library')
  await expect(page.getByTestId('library-licenses').getByTestId('activation-qa-e2e-box')).toContainText(
    'QA test machine'
  )

  // The inspector has the activation request, redacted.
  await goTo(page, '#/requests')
  const row = page.getByRole('row').filter({ hasText: '/api/license/v1/activate' })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('201')
  await row.getByRole('button').click()
  const detail = page.getByTestId('request-detail')
  await expect(detail).toContainText('x-svc-plugin-secret')
  await expect(detail).not.toContainText(DEMO.pluginSecret)

  // Deactivate frees the slot; the library no longer lists the machine.
  await goTo(page, '#/tester')
  const deactivate = page.getByTestId('step-deactivate')
  await deactivate.getByRole('button', { name: 'Deactivate' }).click()
  await expect(deactivate.getByTestId('step-deactivate-outcome')).toHaveText('deactivated')
  await expect(deactivate.locator('.exchange-line')).toContainText(/deactivat/i)
  await goTo(page, '#/library')
  await expect(page.getByTestId('library-licenses')).toBeVisible()
  await expect(page.getByTestId('activation-qa-e2e-box')).toHaveCount(0)

  // The overview lists the plugin's latest calls.
  await goTo(page, '#/overview')
  await expect(page.getByTestId('recent-requests')).toContainText('/api/license/v1/deactivate')
  await page.setViewportSize({ width: 1920, height: 1080 })
  await shot(page, 'overview-activity-1920')
})

test('pasted values with a wrong App ID, and a license over its limit, are explained', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/tester')
  await page.getByTestId('tester-productId').fill(DEMO.productId)
  await page.getByTestId('tester-appId').fill('app_SomeOtherProduct000000001')
  await page.getByTestId('tester-pluginKey').fill(DEMO.pluginKey)
  await page.getByTestId('tester-pluginSecret').fill(DEMO.pluginSecret)
  const verify = page.getByTestId('step-verify')
  await verify.getByRole('button', { name: 'Verify' }).click()
  await expect(verify.getByTestId('step-verify-diagnosis')).toContainText('The App ID does not belong to this product.')
  await expect(page.getByTestId('tester-credential').locator('.field--invalid')).toContainText('App ID')

  // Licensing with the same wrong App ID: PRODUCT_CREDENTIAL_INVALID, reason APP_ID_MISMATCH.
  await page.getByTestId('tester-license-key').fill('DEMO7-LIMIT-REACH-ED000-00007')
  const activate = page.getByTestId('step-activate')
  await activate.getByRole('button', { name: 'Activate' }).click()
  await expect(activate.getByTestId('step-activate-outcome')).toHaveText('PRODUCT_CREDENTIAL_INVALID')
  await expect(activate.getByTestId('step-activate-diagnosis')).toContainText('APP_ID_MISMATCH')

  // With the right App ID, the license that reached its limit says so.
  await page.getByTestId('tester-appId').fill(DEMO.appId)
  await activate.getByRole('button', { name: 'Activate' }).click()
  await expect(activate.getByTestId('step-activate-outcome')).toHaveText('TOO_MANY_ACTIVATIONS')
  await expect(activate.getByTestId('step-activate-diagnosis')).toContainText('Deactivate another instance first')
})
