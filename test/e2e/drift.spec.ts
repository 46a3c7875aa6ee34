import { startDriftDouble } from '../support/drift-double'
import type { DriftDouble } from '../support/drift-double'
import { expect, startServe, test } from './fixtures'
import type { ServedEmulator } from './fixtures'
import { expectCleanLayout } from './layout-checks'
import { callService, DEMO, goTo, openApp, shot } from './support'

// The Drift screen (docs/upstream.md, "The drift report"): a second `serve` is the platform, the
// mutating double drifts in front of it, and the app under test forwards to the double.

let platform: { emulator: ServedEmulator; stop: () => Promise<void> }
let double: DriftDouble

test.beforeAll(async () => {
  platform = await startServe()
  const preset = await platform.emulator.control('POST', '/presets/full-library')
  expect(preset.status).toBe(200)
  double = await startDriftDouble(platform.emulator.baseUrl)
})

test.afterAll(async () => {
  await double?.close()
  await platform?.stop()
})

const PLUGIN_HEADERS = {
  'x-svc-app-id': DEMO.appId,
  'x-svc-plugin-key': DEMO.pluginKey,
  'x-svc-plugin-secret': DEMO.pluginSecret
}

async function validate(emulator: ServedEmulator) {
  return callService(
    emulator,
    'POST',
    '/api/license/v1/validate',
    { license_key: DEMO.perpetualKey, instance_id: 'studio-mac', nonce: 'n-1' },
    PLUGIN_HEADERS
  )
}

test('shows where the upstream drifts, marks the exchange in the inspector, and clears', async ({ page, emulator }) => {
  const upstream = await emulator.control('PUT', '/upstream', { url: double.baseUrl })
  expect(upstream.status).toBe(200)
  double.mutation = null
  const activated = await callService(
    emulator,
    'POST',
    '/api/license/v1/activate',
    { license_key: DEMO.perpetualKey, instance_id: 'studio-mac' },
    PLUGIN_HEADERS
  )
  expect(activated.status).toBeLessThan(300)
  for (const mutation of ['UNKNOWN_FIELD', 'WRONG_TYPE', 'TOKEN_CLAIMS'] as const) {
    double.mutation = mutation
    await validate(emulator)
  }
  double.mutation = null
  await callService(emulator, 'GET', '/.well-known/jwks.json')

  for (const width of [1280, 1366]) {
    await page.setViewportSize({ width, height: 860 })
    await openApp(page, emulator, '#/drift')
    const screen = page.getByTestId('drift-screen')
    await expect(screen.getByTestId('drift-coverage')).toContainText('3 of')
    await expect(screen.getByTestId('drift-finding')).toHaveCount(3)
    const validateCard = screen.getByTestId('drift-operation').filter({ hasText: '/api/license/v1/validate' })
    await expect(validateCard).toContainText('validateLicense')
    await expect(validateCard).toContainText('UNKNOWN_FIELD')
    await expect(validateCard).toContainText('$.upstream_only')
    await expect(validateCard).toContainText('TOKEN_CLAIMS')
    // Readable: no overlapping text, nothing cut off at the right edge, no sideways scroll.
    await expectCleanLayout(page, `the Drift screen at ${width} px`)
    await expect(screen).not.toContainText(DEMO.pluginSecret)
    await shot(page, `drift-report-${width}`)
  }

  // The inspector marks the drifted exchanges and lists the findings of one.
  await goTo(page, '#/requests')
  const marks = page.getByTestId('request-drift-mark')
  await expect(marks).toHaveCount(3)
  const drifted = page.locator('tbody tr', { has: marks }).first()
  await drifted.locator('.row-button').click()
  await expect(page.getByTestId('request-drift')).toBeVisible()
  await expect(page.getByTestId('request-drift').getByTestId('drift-finding')).toHaveCount(1)
  await expectCleanLayout(page, 'the Requests screen with a drifted exchange')
  await shot(page, 'drift-in-request-detail')

  await goTo(page, '#/drift')
  await page.getByTestId('drift-clear').click()
  await page.getByTestId('drift-clear-dialog').getByRole('button', { name: 'Clear report' }).click()
  await expect(page.getByText('No upstream answer checked yet')).toBeVisible()
  await expect(page.getByTestId('drift-coverage')).toContainText('0 of')
})
