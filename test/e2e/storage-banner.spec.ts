import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'

import { expect, startServe, test } from './fixtures'

// docs/api.md section 1, "Storage faults": another program (a sqlite3 shell, as QA opens the
// database in a viewer) holds the write lock. The UI keeps answering, a change the user makes is
// refused with STORAGE_BUSY after the busy timeout, the banner says why on every screen, and it
// clears once a change is saved again.
test('a banner says while writes fail for storage, and clears after the next saved change', async ({
  page,
  emulator
}) => {
  await page.goto(emulator.adminUrl)
  const firstRun = page.getByTestId('first-run')
  await expect(firstRun.getByRole('button', { name: 'Create developer' })).toBeEnabled()
  await expect(page.getByTestId('storage-banner')).toHaveCount(0)

  const shell = spawn('sqlite3', ['-bail', join(emulator.dataDir, 'emulator.db')], {
    stdio: ['pipe', 'pipe', 'inherit']
  })
  let output = ''
  shell.stdout.on('data', (chunk) => (output += String(chunk)))
  shell.stdin.write(".timeout 5000\nBEGIN IMMEDIATE;\nSELECT 'holding';\n")
  await expect.poll(() => output).toContain('holding')
  try {
    await firstRun.getByRole('button', { name: 'Create developer' }).click()
    const naming = page.getByRole('dialog', { name: 'Create a developer' })
    await naming.getByRole('button', { name: 'Create developer' }).click()
    // The server waits (5 s) without freezing: the UI's own reads still answer meanwhile.
    const health = await page.request.get(`${emulator.baseUrl}/_emulator/health`, { timeout: 1000 })
    expect(health.ok()).toBe(true)
    const banner = page.getByTestId('storage-banner')
    await expect(banner).toBeVisible({ timeout: 15_000 })
    await expect(banner).toContainText('Another program holds the write lock of emulator.db')
    await expect(banner).toContainText(join(emulator.dataDir, 'emulator.db'))
    // The dialog says why its change was not made.
    await expect(naming).toContainText('STORAGE_BUSY')
    await naming.getByRole('button', { name: 'Cancel' }).click()
    // On every screen.
    await page.getByRole('link', { name: 'Scenarios & settings' }).click()
    await expect(banner).toBeVisible()
    await page.getByRole('link', { name: 'Overview' }).click()
  } finally {
    shell.stdin.end('ROLLBACK;\n.quit\n')
    await new Promise((resolve) => shell.once('exit', resolve))
  }

  // The lock is gone: the same change is saved, and the banner clears.
  await firstRun.getByRole('button', { name: 'Create developer' }).click()
  const again = page.getByRole('dialog', { name: 'Create a developer' })
  await again.getByRole('button', { name: 'Create developer' }).click()
  await expect(again).toBeHidden()
  await expect(page.getByTestId('storage-banner')).toHaveCount(0)
  await expect(firstRun).toContainText('Acting as My Studio')
})

// The database file deleted while the emulator runs (a QA engineer "resetting" by hand): writes
// would be lost at exit, so they are refused, and only a restart ends it. The banner says so, with
// no "Try again" that could not help. A `serve` of its own: the file's one is the next file's too.
test('a deleted database: the banner says to export and restart, and offers no Try again', async ({ page }) => {
  const { emulator, stop } = await startServe()
  try {
    await page.goto(emulator.adminUrl)
    await expect(page.getByTestId('first-run').getByRole('button', { name: 'Create developer' })).toBeEnabled()
    rmSync(join(emulator.dataDir, 'emulator.db'))
    const banner = page.getByTestId('storage-banner')
    await expect(banner).toBeVisible({ timeout: 15_000 })
    await expect(banner).toContainText(
      'emulator.db was deleted, moved or replaced: export what it holds, then restart the emulator.'
    )
    await expect(banner).toContainText('Reads still work until the emulator stops.')
    await expect(banner.getByRole('button', { name: 'Try again' })).toHaveCount(0)
  } finally {
    await stop()
  }
})
