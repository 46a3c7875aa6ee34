import { expect, test } from './fixtures'
import { expectCleanLayout } from './layout-checks'
import { callService, DEMO, loadPreset, openApp, shot } from './support'

// docs/ui.md "Requests": a validate's license token, decoded in the detail pane, signature redacted.

const CREDENTIAL = {
  'x-svc-app-id': DEMO.appId,
  'x-svc-plugin-key': DEMO.pluginKey,
  'x-svc-plugin-secret': DEMO.pluginSecret
}

test("inspector: a validate's license token reads as header and claims, its signature redacted, at 1280 and 800 px", async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  const body = { license_key: DEMO.perpetualKey, instance_id: 'studio-mac-01' }
  await callService(emulator, 'POST', '/api/license/v1/activate', body, CREDENTIAL)
  const validated = await callService(
    emulator,
    'POST',
    '/api/license/v1/validate',
    { ...body, nonce: 'nonce-e2e-42' },
    CREDENTIAL
  )
  const token = String(validated.body?.license_token)
  const [, , signature] = token.split('.')
  expect(signature?.length).toBeGreaterThan(20)

  for (const [width, height] of [
    [1280, 800],
    [800, 700]
  ] as const) {
    await page.setViewportSize({ width, height })
    await openApp(page, emulator, `#/requests?q=${DEMO.perpetualKey}`)
    await page.getByRole('row').filter({ hasText: '/api/license/v1/validate' }).getByRole('button').click()
    const detail = page.getByTestId('request-detail')
    const block = detail.getByTestId('request-license-token')
    await expect(block).toHaveCount(1)
    await expect(block).toContainText('signature redacted')
    await expect(block).toContainText('license_token')
    const header = block.getByTestId('request-token-header')
    await expect(header).toContainText('EdDSA')
    await expect(header).toContainText('license+jwt')
    const claims = block.getByTestId('request-token-claims')
    await expect(claims).toContainText('nonce-e2e-42')
    await expect(claims).toContainText('studio-mac-01')
    await expect(claims).toContainText('license.kind')
    await expect(claims).toContainText('plugin-license-emulator')
    // exp as a date, beside its seconds.
    const expRow = claims.locator('.kv__row').filter({ hasText: 'token expires' })
    await expect(expRow.locator('time')).toHaveCount(1)
    // Neither the token nor its signature is anywhere on the page.
    const pageText = await page.locator('body').innerText()
    expect(pageText.includes(signature as string)).toBe(false)
    expect(pageText.includes(token)).toBe(false)

    await block.scrollIntoViewIfNeeded()
    await expectCleanLayout(page, `the license token block at ${width}x${height}`)
    await shot(page, `requests-license-token-${width}`)
    await claims.scrollIntoViewIfNeeded()
    await expectCleanLayout(page, `the license token claims at ${width}x${height}`)
    await shot(page, `requests-license-token-claims-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 800 })
})
