import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'

import { expect, test } from './fixtures'
import type { ServedEmulator } from './fixtures'
import { expectCleanLayout, expectDialogControlsReachable } from './layout-checks'
import { DEMO, expectAccessible, goTo, loadPreset, openApp } from './support'

/** Screenshots of the long states (looked at by hand; .tmp/ is not committed). */
const DIR = join(process.cwd(), '.tmp', 'long-states')

const SIZES = [
  [800, 700],
  [1024, 768],
  [1440, 900]
] as const

/** The full library plus 40 products and 60 licenses for the demo customer. */
async function bigLibrary(emulator: ServedEmulator): Promise<void> {
  await loadPreset(emulator, 'full-library')
  const developerId = 'dev_demo'
  const kinds = ['perpetual', 'subscription', 'trial'] as const
  for (let index = 0; index < 40; index++) {
    const product = await emulator.control<{ product: { id: string } }>('POST', '/products', {
      developerId,
      name: `Long-named Vintage Tape Saturator Collection ${index + 1}`
    })
    expect(product.status).toBe(201)
    const purchases = index < 20 ? 2 : 1
    for (let n = 0; n < purchases; n++) {
      const kind = kinds[(index + n) % 3]
      const bought = await emulator.control('POST', '/purchases', {
        customerId: 'cus_demo',
        productId: product.body.product.id,
        kind
      })
      expect(bought.status).toBe(201)
    }
  }
}

/** A failed run (wrong secret) and, on the second card set, a successful one: every step carries a result. */
async function testerRuns(page: Page, fail: boolean): Promise<void> {
  await goTo(page, `#/tester?product=${DEMO.productId}`)
  await page.getByRole('button', { name: 'Fill key and secret (reveal)' }).click()
  await expect(page.getByTestId('tester-pluginSecret')).toHaveValue(DEMO.pluginSecret)
  if (fail) await page.getByTestId('tester-pluginSecret').fill('sk_NotTheSecret000000000000')
  await page.getByTestId('tester-license-key').fill(fail ? 'NOPE0-NOPE0-NOPE0-NOPE0-NOPE0' : DEMO.perpetualKey)
  await page.getByTestId('tester-instance-id').fill('qa-long-state-machine-with-a-long-name')
  for (const step of ['verify', 'activate', 'validate', 'deactivate']) {
    const card = page.getByTestId(`step-${step}`)
    await card.getByRole('button', { name: new RegExp(`^${step}$`, 'i') }).click()
    await expect(card.getByTestId(`step-${step}-outcome`)).toBeVisible()
  }
}

async function check(page: Page, name: string, { axe = true } = {}): Promise<void> {
  await expectCleanLayout(page, name)
  await page.screenshot({ path: join(DIR, `${name}.png`) })
  if (axe) await expectAccessible(page, name)
}

/**
 * Checks the screen at its top and one window further down. axe reads the whole document, wherever
 * it is scrolled: it runs once, at the top.
 */
async function checkScrolled(page: Page, name: string): Promise<void> {
  await page.evaluate('document.querySelector(".content").scrollTo(0, 0)')
  await check(page, name)
  await page.evaluate(
    '(() => { const main = document.querySelector(".content"); main.scrollTo(0, main.clientHeight - 80) })()'
  )
  await check(page, `${name}-2`, { axe: false })
}

for (const [width, height] of SIZES) {
  test(`long states hold at ${width}x${height}: tester runs, a big library, a full inspector, dialogs with toasts`, async ({
    page,
    emulator
  }) => {
    test.setTimeout(180_000)
    mkdirSync(DIR, { recursive: true })
    await page.setViewportSize({ width, height })
    await bigLibrary(emulator)
    await openApp(page, emulator)

    await testerRuns(page, true)
    await expect(page.getByTestId('step-verify-outcome')).toHaveText('PLUGIN_CONNECTION_FAILED')
    await checkScrolled(page, `${width}-tester-failed`)
    await testerRuns(page, false)
    await expect(page.getByTestId('step-validate-outcome')).toHaveText('VALID')
    await checkScrolled(page, `${width}-tester-passed`)

    await goTo(page, '#/library')
    await expect(page.getByTestId('library-licenses')).toBeVisible()
    await checkScrolled(page, `${width}-library`)
    await page.getByTestId('library-licenses').scrollIntoViewIfNeeded()
    await check(page, `${width}-library-licenses`)

    await goTo(page, '#/requests')
    await expect(page.locator('[data-testid^=request-row-]').first()).toBeVisible()
    await page.locator('[data-testid^=request-row-]').first().getByRole('button').first().click()
    await checkScrolled(page, `${width}-requests`)

    for (const hash of ['#/overview', '#/developers', `#/credentials?product=${DEMO.productId}`, '#/scenarios']) {
      await goTo(page, hash)
      await checkScrolled(page, `${width}-${hash.slice(2).split('?')[0]}`)
    }

    // A dialog with three toasts over it: the toasts stay readable and clickable, and cover none of its buttons.
    await goTo(page, `#/credentials?product=${DEMO.productId}`)
    await page.getByTestId('export-credential').click()
    await page
      .getByRole('dialog', { name: 'Export the runtime config' })
      .getByRole('button', { name: 'Reveal and export' })
      .click()
    const exportDialog = page.getByRole('dialog', { name: 'Secret revealed' })
    for (let n = 0; n < 3; n++) {
      const download = page.waitForEvent('download')
      await exportDialog.getByTestId('export-env').click()
      await download
    }
    await expect(page.getByText('Config saved').first()).toBeVisible()
    await expectDialogControlsReachable(page, `${width} export dialog with toasts`)
    await check(page, `${width}-dialog-toasts`)
    await page.getByRole('button', { name: 'Dismiss' }).first().click()
    await exportDialog.getByRole('button', { name: 'Done' }).click()
    await expect(exportDialog).toBeHidden()
  })
}
