import { readFileSync } from 'node:fs'

import { expect, test } from './fixtures'
import { callService, DEMO, DEMO_VALUES, goTo, openApp, shot } from './support'

test('load a preset, inject a fault, move the clock, export, import and reset', async ({ page, emulator }) => {
  await openApp(page, emulator, '#/scenarios')

  // A preset replaces the data, after a confirmation.
  await page.getByRole('button', { name: 'Load preset Customer with a full library' }).click()
  await page
    .getByRole('dialog', { name: /Load “Customer with a full library”/ })
    .getByRole('button', { name: 'Replace data' })
    .click()
  await expect(page.getByText('Preset loaded: Customer with a full library')).toBeVisible()
  await goTo(page, '#/overview')
  await expect(page.getByTestId('count-licenses')).toContainText('7')
  await goTo(page, '#/scenarios')

  // A fault rule from a template, applied: verify answers 503 until it is removed.
  const editor = page.getByTestId('fault-editor')
  await expect(editor).toContainText('No fault rules')
  await editor.getByRole('button', { name: 'Verify answers 503' }).click()
  await expect(editor.getByTestId('fault-rule-0')).toContainText('POST /api/plugin-connections/verify → answers 503')
  await editor.getByRole('button', { name: 'Slow licensing (2 s)' }).click()
  await editor.getByTestId('apply-faults').click()
  await expect(editor).toContainText('2 active')
  await page.setViewportSize({ width: 1920, height: 1080 })
  await shot(page, 'scenarios-1920')
  await page.setViewportSize({ width: 1280, height: 800 })
  const faulted = await callService(emulator, 'POST', '/api/plugin-connections/verify', { ...DEMO_VALUES })
  expect(faulted.status).toBe(503)
  expect(faulted.body?.error).toBe('FAULT_INJECTED')
  const rules = await emulator.control<{ rules: { route: string; kind: string; status: number }[] }>('GET', '/faults')
  expect(rules.body.rules).toMatchObject([
    { route: '/api/plugin-connections/verify', kind: 'error', status: 503 },
    { route: '/api/license/v1/**', kind: 'latency', ms: 2000, jitterMs: 500 }
  ])

  // A bad rule is explained before anything is sent.
  await editor.getByRole('button', { name: 'Empty rule' }).click()
  await editor.getByTestId('fault-rule-2').getByTestId('fault-route').fill('api without a slash')
  await editor.getByTestId('apply-faults').click()
  await expect(editor.getByTestId('fault-rule-2')).toContainText('Start with / (or *)')
  expect((await emulator.control<{ rules: unknown[] }>('GET', '/faults')).body.rules).toHaveLength(2)
  await editor.getByRole('button', { name: 'Remove rule 3' }).click()
  await shot(page, 'scenarios')
  await editor.getByRole('button', { name: 'Discard changes' }).click()
  await editor.getByRole('button', { name: 'Remove all' }).click()
  await page
    .getByRole('dialog', { name: 'Remove every fault rule?' })
    .getByRole('button', { name: 'Remove all' })
    .click()
  await expect(editor).toContainText('none active')
  expect((await callService(emulator, 'POST', '/api/plugin-connections/verify', { ...DEMO_VALUES })).status).toBe(200)

  // The clock.
  const clock = page.getByTestId('clock-card')
  await clock.getByRole('button', { name: '+7 days' }).click()
  await expect(clock.getByTestId('clock-offset')).toHaveText('+7 days')
  expect((await emulator.control<{ offsetS: number }>('GET', '/clock')).body.offsetS).toBe(7 * 86_400)
  await clock.getByRole('button', { name: 'Back to system time' }).click()
  await expect(clock.getByTestId('clock-offset')).toHaveText('system time')

  // Export the state, reset, and import it back.
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export state' }).click()
  const file = await (await download).path()
  const exported = JSON.parse(readFileSync(file, 'utf8')) as { format: string; licenses: unknown[] }
  expect(exported.format).toBeTruthy()
  expect(exported.licenses).toHaveLength(7)
  expect(readFileSync(file, 'utf8')).not.toContain(DEMO.pluginSecret)

  await page.getByRole('button', { name: 'Reset', exact: true }).click()
  await page
    .getByRole('dialog', { name: 'Reset the emulator?' })
    .getByRole('button', { name: 'Reset everything' })
    .click()
  await expect(page.getByText('Emulator reset')).toBeVisible()
  expect((await emulator.control<{ customers: unknown[] }>('GET', '/customers')).body.customers).toEqual([])

  // Opened and saved in a Windows editor on the way: a byte order mark and CRLF line ends.
  await page.getByTestId('import-file').setInputFiles({
    name: 'edited-in-notepad.json',
    mimeType: 'application/json',
    buffer: Buffer.from(`\uFEFF${readFileSync(file, 'utf8').replaceAll('\n', '\r\n')}`)
  })
  await page.getByRole('dialog', { name: 'Import this scenario?' }).getByRole('button', { name: 'Import' }).click()
  await expect(page.getByText('State imported')).toBeVisible()
  expect((await emulator.control<{ customers: unknown[] }>('GET', '/customers')).body.customers).toHaveLength(1)
})

test('header prefix, strict mode and the subscription grace period change at runtime', async ({ page, emulator }) => {
  try {
    await openApp(page, emulator, '#/scenarios')
    const settings = page.getByTestId('server-settings')
    await settings.getByTestId('header-prefix').fill('acme')
    await expect(settings).toContainText('x-acme-plugin-secret')
    await settings.getByRole('button', { name: 'Save', exact: true }).click()
    await expect(page.getByText('Header prefix is now acme')).toBeVisible()
    expect(
      (await emulator.control<{ settings: { headerPrefix: string } }>('GET', '/settings')).body.settings.headerPrefix
    ).toBe('acme')

    await settings.getByTestId('strict-mode').check()
    await expect(page.getByText('Strict mode on')).toBeVisible()
    expect((await emulator.control<{ settings: { strict: boolean } }>('GET', '/settings')).body.settings.strict).toBe(
      true
    )

    await expect(settings.getByTestId('grace-days')).toHaveValue('7')
    await settings.getByTestId('grace-days').fill('2.5')
    await settings.getByRole('button', { name: 'Save grace period' }).click()
    await expect(page.getByText('Subscription grace period is now 2.5 days')).toBeVisible()
    expect(
      (await emulator.control<{ settings: { subscriptionGraceDays: number } }>('GET', '/settings')).body.settings
        .subscriptionGraceDays
    ).toBe(2.5)

    await goTo(page, '#/overview')
    await expect(page.getByTestId('server-card')).toContainText('x-acme-app-id')
    await expect(page.getByTestId('server-card')).toContainText('strict')
  } finally {
    // Settings outlive a reset; the next test expects the defaults.
    await emulator.control('PUT', '/settings', { headerPrefix: 'svc', strict: false, subscriptionGraceDays: 7 })
  }
})
