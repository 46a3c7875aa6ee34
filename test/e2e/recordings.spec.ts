import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

import { expect, test } from './fixtures'
import { expectCleanLayout } from './layout-checks'
import { spawnServe } from './serve-process'
import { callService, DEMO, expectAccessible, openApp, shot } from './support'

// Issue 37 (docs/upstream.md, "Record, replay, reproduce"): the Recordings screen records what a
// second serve (the "real platform") answered through this one, downloads it, replays it and makes
// a scenario of it; readable at 1280 and 1366 px.
test('the Recordings screen records, downloads, replays and makes a scenario', async ({ page, emulator }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ple-e2e-upstream-'))
  const adminToken = randomBytes(16).toString('hex')
  const platform = await spawnServe({ dataDir, adminToken, port: '0' })
  try {
    const preset = await fetch(`${platform.baseUrl}/_emulator/presets/full-library`, {
      method: 'POST',
      headers: { 'x-emulator-token': adminToken }
    })
    expect(preset.status).toBe(200)
    expect((await emulator.control('PUT', '/upstream', { url: platform.baseUrl })).status).toBe(200)

    await page.setViewportSize({ width: 1280, height: 800 })
    await openApp(page, emulator, '#/recordings')
    await expect(page.getByRole('heading', { name: 'Recordings', level: 1 })).toBeVisible()
    await page.getByTestId('recording-name').fill('EXPIRED for ACME')
    await page.getByTestId('recording-start').click()
    await expect(page.getByTestId('record-running')).toContainText('EXPIRED for ACME')

    const headers = {
      'x-svc-app-id': DEMO.appId,
      'x-svc-plugin-key': DEMO.pluginKey,
      'x-svc-plugin-secret': DEMO.pluginSecret
    }
    const validate = await callService(
      emulator,
      'POST',
      '/api/license/v1/validate',
      { license_key: 'DEMO4-EXPIR-ED000-00000-00004' },
      headers
    )
    expect(validate.status).toBe(200)
    await page.waitForTimeout(300)
    await page.getByTestId('recording-stop').click()
    const row = page.locator('[data-testid^="recording-row-"]').first()
    await expect(row).toContainText('EXPIRED for ACME')
    await expect(row).toContainText('1')

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: 'Download' }).click()
    ])
    const saved = readFileSync(await download.path(), 'utf8')
    expect(JSON.parse(saved).format).toBe('plugin-license-emulator/recording')
    for (const secret of [DEMO.pluginKey, DEMO.pluginSecret, adminToken, emulator.adminToken])
      expect(saved).not.toContain(secret)

    await page.getByTestId('replay-strict').check()
    await page.getByTestId('replay-on').click()
    await expect(page.getByTestId('replay-state')).toContainText('Replaying')
    await expect(page.getByTestId('replay-state')).toContainText('strict')
    // Coming back to the screen during the replay: the form shows the replay that runs.
    await page.reload()
    await expect(page.getByTestId('replay-state')).toContainText('strict')
    await expect(page.getByTestId('replay-strict')).toBeChecked()
    await expect(page.getByTestId('replay-resign')).not.toBeChecked()

    await page.getByTestId('scenario-plugin-key').fill(DEMO.pluginKey)
    await page.getByTestId('scenario-plugin-secret').fill(DEMO.pluginSecret)
    const [scenarioFile] = await Promise.all([page.waitForEvent('download'), page.getByTestId('scenario-make').click()])
    const scenario = readFileSync(await scenarioFile.path(), 'utf8')
    expect(JSON.parse(scenario).format).toBe('plugin-license-emulator/scenario')
    expect(scenario).not.toContain(DEMO.pluginSecret)
    await expect(page.getByTestId('scenario-notes')).toContainText('developers')

    for (const [width, height] of [
      [1280, 800],
      [1366, 768]
    ] as const) {
      await page.setViewportSize({ width, height })
      await expectCleanLayout(page, `recordings at ${width}`)
      await shot(page, `recordings-${width}`)
    }
    await expectAccessible(page, 'recordings')

    await page.getByTestId('replay-off').click()
    await expect(page.getByTestId('replay-state')).toContainText('No recording is replayed')
    await expect(page.getByTestId('replay-strict')).not.toBeChecked()
    await row.getByRole('button', { name: 'Delete' }).click()
    await expect(page.getByText('No recordings yet')).toBeVisible()
  } finally {
    await emulator.control('PUT', '/replay', { recording: null })
    await emulator.control('PUT', '/upstream', { url: null })
    platform.child.kill('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  }
})
