import { cardEdgeProblems } from './card-edges'
import { expect, test } from './fixtures'
import { expectCleanLayout, partsBrokenMidWord } from './layout-checks'
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

test('inspector: a key id or thumbprint with a `-` or `_` in it wraps anywhere, never at its separator mid-run, at 1280x720 and 760x600', async ({
  page,
  emulator
}) => {
  // A key id is a JWK thumbprint: 43 base64url characters, a `-` or `_` wherever they fall (CI
  // once drew one whose `-` came after 36 characters, and the header's row broke inside that run).
  const kid = 'Q0-m9PqLr7sT3vWy5AbCdEfGhIjKlMnOpQrStUvWxYz'
  const jti = 'Zk2x9PqLr7sT3vWy5AbCdEfGhIjKlMnOpQrStUv_W8'
  const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const token = [
    segment({ alg: 'EdDSA', kid, typ: 'license+jwt' }),
    segment({
      iss: 'plugin-license-emulator',
      sub: 'lic_opaque_values',
      jti,
      instance_id: 'studio-mac-with-a-long-machine-name-01'
    }),
    'c2lnbmF0dXJlLW5vdC1jaGVja2VkLWJ5LXRoZS1pbnNwZWN0b3I'
  ].join('.')
  await callService(
    emulator,
    'POST',
    '/api/license/v1/validate',
    { license_key: 'OPAQ1-OPAQ1-OPAQ1-OPAQ1-OPAQ1', license_token: token },
    CREDENTIAL
  )
  for (const [width, height] of [
    [1280, 720],
    [760, 600]
  ] as const) {
    await page.setViewportSize({ width, height })
    await openApp(page, emulator, '#/requests?q=OPAQ1')
    await page.getByRole('row').filter({ hasText: '/api/license/v1/validate' }).getByRole('button').click()
    const block = page.getByTestId('request-detail').getByTestId('request-license-token')
    await expect(block).toContainText('the request body')
    const header = block.getByTestId('request-token-header')
    await expect(header.locator('code.request-token__opaque', { hasText: kid })).toHaveCount(1)
    const claims = block.getByTestId('request-token-claims')
    await expect(claims.locator('code.request-token__opaque', { hasText: jti })).toHaveCount(1)
    // A value of short parts still wraps at its separators.
    await expect(claims.locator('.breakable', { hasText: 'studio-mac-with-a-long-machine-name-01' })).toHaveCount(1)
    await header.scrollIntoViewIfNeeded()
    expect(await partsBrokenMidWord(page), `a value broken inside a run at ${width}x${height}`).toEqual([])
    // Every line of it filled: the kid's first line ended at its '-' ("Q0-"), three lines where two hold it.
    expect((await cardEdgeProblems(page)).shredded, `a value a few letters a line at ${width}x${height}`).toEqual([])
    await expectCleanLayout(page, `a token with opaque values at ${width}x${height}`)
  }
  await page.setViewportSize({ width: 1280, height: 800 })
})
