import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'

import { expect, test } from './fixtures'
import type { ServedEmulator } from './fixtures'
import { layoutProblems } from './layout-checks'
import { callService, DEMO, goTo, loadPreset, openApp, shot } from './support'

const CREDENTIAL = {
  'x-svc-app-id': DEMO.appId,
  'x-svc-plugin-key': DEMO.pluginKey,
  'x-svc-plugin-secret': DEMO.pluginSecret
}

/** A plugin's licensing calls: activate, validate, deactivate, and two that fail with long codes. */
async function licensingCalls(emulator: ServedEmulator): Promise<void> {
  const body = { license_key: DEMO.perpetualKey, instance_id: 'studio-mac-01' }
  await callService(emulator, 'POST', '/api/license/v1/activate', body, CREDENTIAL)
  await callService(emulator, 'POST', '/api/license/v1/validate', body, CREDENTIAL)
  await callService(emulator, 'POST', '/api/license/v1/deactivate', body, CREDENTIAL)
  await callService(
    emulator,
    'POST',
    '/api/license/v1/validate',
    { license_key: 'NOPE0-NOPE0-NOPE0-NOPE0-NOPE0' },
    CREDENTIAL
  )
}

/** Text in the Requests list cut (an ellipsis, a clipped box): any element narrower than its text. */
async function cutCells(page: Page): Promise<string[]> {
  return page.evaluate(`[...document.querySelectorAll('.requests__list tbody td, .requests__list tbody td *')]
    .filter((element) => element.scrollWidth > element.clientWidth + 1 && element.textContent.trim())
    .map((element) => element.textContent)`)
}

test('defect 1: the settings forms show the server values after navigating away and back', async ({
  page,
  emulator
}) => {
  await openApp(page, emulator, '#/scenarios')
  await expect(page.getByTestId('header-prefix')).toHaveValue('svc')
  await expect(page.getByTestId('grace-days')).toHaveValue('7')
  await goTo(page, '#/library')
  await goTo(page, '#/scenarios')
  await expect(page.getByTestId('header-prefix')).toHaveValue('svc')
  await expect(page.getByTestId('grace-days')).toHaveValue('7')
  // A script changes them: the forms show the new saved values within a second.
  expect((await emulator.control('PUT', '/settings', { subscriptionGraceDays: 3 })).status).toBe(200)
  await expect(page.getByTestId('grace-days')).toHaveValue('3', { timeout: 1000 })
  await emulator.control('PUT', '/settings', { subscriptionGraceDays: 7 })
})

test('defect 2: licensing paths and error codes read whole in the Requests list', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await emulator.control('PUT', '/faults', {
    rules: [{ id: 'flaky-validate-for-one', route: '/api/plugin-connections/verify', kind: 'error', status: 503 }]
  })
  await callService(emulator, 'POST', '/api/plugin-connections/verify', {})
  await licensingCalls(emulator)
  for (const [width, height] of [
    [1280, 800],
    [1366, 768],
    [1536, 864],
    [1920, 1080]
  ] as const) {
    await page.setViewportSize({ width, height })
    await openApp(page, emulator, '#/requests')
    await expect(page.getByRole('row').filter({ hasText: '/api/license/v1/deactivate' })).toHaveCount(1)
    expect(await cutCells(page), `cut at ${width}x${height}`).toEqual([])
    const problems = await layoutProblems(page)
    expect(problems.sideways, `sideways at ${width}`).toEqual({ document: 0, content: 0 })
    expect(problems.overlaps, `overlaps at ${width}`).toEqual([])
    await shot(page, `requests-list-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 800 })
})

test('defect 4: the status bar links land on the clock and the fault rules', async ({ page, emulator }) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openApp(page, emulator, '#/overview')
  const bar = page.getByTestId('status-bar')
  await bar.getByRole('link', { name: 'Move it' }).click()
  await expect(page.getByTestId('clock-card')).toBeInViewport()
  await goTo(page, '#/overview')
  await bar.getByRole('link', { name: 'Add one' }).click()
  await expect(page.getByTestId('fault-editor')).toBeInViewport()
  await goTo(page, '#/overview')
  await bar.getByRole('link', { name: 'Library clock' }).click()
  await expect(page.getByTestId('qa-toolbar').getByTestId('clock-controls')).toBeInViewport()
  // Loading the library above it does not push the clock away.
  await page.waitForTimeout(1500)
  await expect(page.getByTestId('qa-toolbar').getByTestId('clock-controls')).toBeInViewport()
})

test('defect 6: a search that hides the selected row clears its detail', async ({ page, emulator }) => {
  await loadPreset(emulator, 'full-library')
  await licensingCalls(emulator)
  await openApp(page, emulator, '#/requests')
  await page.getByRole('row').filter({ hasText: '/api/license/v1/deactivate' }).getByRole('button').click()
  await expect(page.getByTestId('request-detail')).toContainText('/api/license/v1/deactivate')
  await page.getByTestId('filter-search').fill('NOPE0-NOPE0')
  await expect(page.getByRole('row').filter({ hasText: '/api/license/v1/deactivate' })).toHaveCount(0)
  await expect(page.getByTestId('request-detail')).toHaveCount(0)
  await expect(page.getByText('No request selected')).toBeVisible()
  await shot(page, 'requests-search-hides-selected')
})

test("fault rules: an empty rule is empty; one customer's validate fails for the next 2 calls, then the rule retires", async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/scenarios?at=fault-rules')
  const editor = page.getByTestId('fault-editor')
  await editor.getByRole('button', { name: 'Empty rule' }).click()
  const empty = editor.getByTestId('fault-rule-0')
  await expect(empty.getByTestId('fault-route')).toHaveValue('')
  await expect(empty.getByLabel('Delay (ms)')).toHaveValue('')
  await empty.getByRole('button', { name: 'Remove rule 1' }).click()

  await editor.getByRole('button', { name: "One license's validate fails (next 3 calls)" }).click()
  const rule = editor.getByTestId('fault-rule-0')
  await expect(rule.getByTestId('fault-match-field')).toHaveValue('license_key')
  await rule.getByTestId('fault-match-equals').fill(DEMO.perpetualKey)
  await rule.getByTestId('fault-times').fill('2')
  await expect(rule).toContainText(`only when license_key is ${DEMO.perpetualKey}; the next 2 calls, then it retires`)
  await editor.getByTestId('apply-faults').click()
  await expect(editor).toContainText('1 active')
  await page.setViewportSize({ width: 1366, height: 768 })
  await shot(page, 'scenarios-fault-match-1366')
  await page.setViewportSize({ width: 1280, height: 800 })

  const validate = (key: string) =>
    callService(emulator, 'POST', '/api/license/v1/validate', { license_key: key }, CREDENTIAL)
  expect((await validate('DEMO2-SUBSC-RIPTI-ON000-00002')).status).toBe(200)
  expect((await validate(DEMO.perpetualKey)).status).toBe(503)
  // Within a second the editor shows the calls left, as the server has them.
  await expect(rule.getByTestId('fault-times')).toHaveValue('1')
  expect((await validate(DEMO.perpetualKey)).status).toBe(503)
  await expect(editor).toContainText('No fault rules')
  expect((await validate(DEMO.perpetualKey)).status).toBe(200)

  // The inspector's label states the match; the rule id wraps at its separators.
  await goTo(page, '#/requests')
  await page.getByRole('row').filter({ hasText: '503' }).first().getByRole('button').click()
  await expect(page.getByTestId('request-fault')).toContainText(`only license_key = ${DEMO.perpetualKey}`)
})

test('the clock goes back by a day or a week, by buttons, and a script sees it', async ({ page, emulator }) => {
  await openApp(page, emulator, '#/scenarios?at=clock')
  const clock = page.getByTestId('clock-card')
  await clock.getByRole('button', { name: '−7 days' }).click()
  await expect(clock.getByTestId('clock-offset')).toHaveText('−7 days')
  await clock.getByRole('button', { name: '−1 day' }).click()
  expect((await emulator.control<{ offsetS: number }>('GET', '/clock')).body.offsetS).toBe(-8 * 86_400)
  await expect(page.getByTestId('status-clock')).toContainText('Clock')
  await clock.getByRole('button', { name: 'Back to system time' }).click()
})

test("inspector: a license's requests by link, Copy as curl with placeholders, Send again through the tester", async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await licensingCalls(emulator)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  // The Library's "Its requests" opens this link (requestsOfLicense in navigation/routes.ts).
  await openApp(page, emulator, `#/requests?q=${DEMO.perpetualKey}`)
  await expect(page.getByTestId('filter-search')).toHaveValue(DEMO.perpetualKey)
  await expect(page.getByRole('row').filter({ hasText: '/api/license/v1/' })).toHaveCount(3)
  await expect(page.getByRole('row').filter({ hasText: 'NOT_FOUND' })).toHaveCount(0)

  const validateRow = page.getByRole('row').filter({ hasText: '/api/license/v1/validate' })
  await validateRow.getByRole('button').click()
  const detail = page.getByTestId('request-detail')
  await detail.getByRole('button', { name: 'Copy as curl' }).click()
  const command = await page.evaluate('navigator.clipboard.readText()')
  expect(command).toContain(`-H 'x-svc-plugin-secret: <plugin secret>'`)
  expect(command).toContain(`"license_key":"${DEMO.perpetualKey}"`)
  expect(command).not.toContain(DEMO.pluginSecret)
  expect(command).not.toContain('...')

  // Without the credential in the tester, Send again says why, in the open.
  await expect(detail.getByRole('button', { name: 'Send again' })).toBeDisabled()
  await expect(detail.getByTestId('request-actions')).toContainText('Connection tester first')
  await page.setViewportSize({ width: 1366, height: 768 })
  await shot(page, 'requests-actions-1366')
  await page.setViewportSize({ width: 1280, height: 800 })

  await goTo(page, '#/tester')
  await page.getByLabel('Product', { exact: true }).selectOption(DEMO.productId)
  await page.getByRole('button', { name: 'Fill key and secret (reveal)' }).click()
  await expect(page.getByTestId('tester-pluginSecret')).toHaveValue(DEMO.pluginSecret)
  await goTo(page, `#/requests?q=${DEMO.perpetualKey}`)
  await validateRow.first().getByRole('button').click()
  await detail.getByRole('button', { name: 'Send again' }).click()
  await expect(page.getByText('Sent again: 200')).toBeVisible()
  const resent = page.getByRole('row').filter({ hasText: '/api/license/v1/validate' }).filter({ hasText: 'tester' })
  await expect(resent).toHaveCount(1)
  // Export HAR: the shown requests (this license's), redacted as the inspector is.
  const download = page.waitForEvent('download')
  await page.getByTestId('export-har').click()
  const har = JSON.parse(readFileSync(await (await download).path(), 'utf8')) as {
    log: { entries: { request: { url: string } }[] }
  }
  expect(har.log.entries.map((entry) => new URL(entry.request.url).pathname)).toContain('/api/license/v1/deactivate')
  expect(JSON.stringify(har)).not.toContain(DEMO.pluginSecret)
  expect(JSON.stringify(har)).not.toContain('NOPE0')
  const log = await emulator.control<{ requests: { path: string; source: string }[] }>(
    'GET',
    '/requests?source=tester&path=/api/license/v1/validate'
  )
  expect(log.body.requests).toHaveLength(1)
})

test('import shows what the file holds (counts, clock, fault rules) before it replaces the state', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await emulator.control('PUT', '/clock', { offsetS: 3 * 86_400 })
  await emulator.control('PUT', '/faults', {
    rules: [{ method: 'POST', route: '/api/license/v1/validate', kind: 'error', status: 503, times: 2 }]
  })
  const exported = await emulator.control<{ state: unknown }>('GET', '/state')
  const file = join(emulator.dataDir, 'bug-report.json')
  writeFileSync(file, JSON.stringify(exported.body.state))
  await emulator.control('POST', '/reset')

  await openApp(page, emulator, '#/scenarios')
  await page.getByTestId('import-file').setInputFiles(file)
  const dialog = page.getByRole('dialog', { name: 'Import this scenario?' })
  const preview = dialog.getByTestId('import-preview')
  await expect(preview).toContainText('7 licenses')
  await expect(preview).toContainText('+3 days')
  await expect(preview).toContainText('POST /api/license/v1/validate → answers 503; the next 2 calls')
  // Nothing replaced yet.
  expect((await emulator.control<{ customers: unknown[] }>('GET', '/customers')).body.customers).toEqual([])
  await page.setViewportSize({ width: 1280, height: 800 })
  await shot(page, 'scenarios-import-preview-1280')
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(page.getByText('State imported')).toBeVisible()
  expect((await emulator.control<{ offsetS: number }>('GET', '/clock')).body.offsetS).toBe(3 * 86_400)

  // A file the import would refuse is refused before the dialog, with the path of its error.
  writeFileSync(file, JSON.stringify({ format: 'plugin-license-emulator/scenario', version: 2, licenses: [{}] }))
  await page.getByTestId('import-file').setInputFiles(file)
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('scenarios-screen')).toContainText('/licenses/0')
  await emulator.control('PUT', '/faults', { rules: [] })
  await emulator.control('PUT', '/clock', { offsetS: 0 })
})
