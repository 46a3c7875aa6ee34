import { mkdirSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect } from './fixtures'
import type { ServedEmulator } from './fixtures'

/** Where the UI screenshots go (kept as test artifacts; the best are copied to docs/screenshots). */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots')

/** The preset credential of the built-in scenarios (src/core/scenarios/presets.ts, documented). */
export const DEMO = {
  productId: 'prod_demo_synth',
  productName: 'Demo Synth',
  appId: 'app_DemoSynth0000000000001',
  pluginKey: 'pk_DemoSynthPresetKey000000000001',
  pluginSecret: 'sk_DemoSynthPresetSecret0000000000001',
  customerName: 'Demo Customer',
  perpetualKey: 'DEMO1-PERPE-TUAL0-00000-00001'
} as const

/** The four values a plugin sends to verify, for the demo product. */
export const DEMO_VALUES = {
  productId: DEMO.productId,
  appId: DEMO.appId,
  pluginKey: DEMO.pluginKey,
  pluginSecret: DEMO.pluginSecret
}

/** Opens the admin URL (the token arrives in the fragment) and waits for the shell. */
export async function openApp(page: Page, emulator: ServedEmulator, hash = '#/overview'): Promise<void> {
  await page.goto(emulator.adminUrl)
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible()
  if (hash !== '#/overview') await goTo(page, hash)
}

/** A route change inside the app (the token stays in sessionStorage). */
export async function goTo(page: Page, hash: string): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`)
  // The app may add parameters (the chosen product, say) to a route without them.
  const escaped = hash.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  await expect(page).toHaveURL(new RegExp(hash.includes('?') ? `${escaped}$` : `${escaped}(\\?.*)?$`))
}

/** Saves a screenshot of a state the suite reached, and runs axe on it; toasts are dismissed first so they do not cover the screen. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const toasts = page.locator('.toast-region').getByRole('button', { name: 'Dismiss' })
  // A toast may leave by itself meanwhile: then there is nothing to click.
  while ((await toasts.count()) > 0)
    await toasts
      .first()
      .click({ timeout: 2000 })
      .catch(() => undefined)
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) })
  await expectAccessible(page, name)
}

export async function loadPreset(emulator: ServedEmulator, name: string): Promise<void> {
  const result = await emulator.control('POST', `/presets/${name}`)
  expect(result.status).toBe(200)
}

export async function createDeveloper(
  emulator: ServedEmulator,
  input: { email: string; name?: string; role?: 'developer' | 'admin' }
): Promise<{ id: string }> {
  const result = await emulator.control<{ developer: { id: string } }>('POST', '/developers', input)
  expect(result.status).toBe(201)
  return result.body.developer
}

export async function createProduct(
  emulator: ServedEmulator,
  developerId: string,
  name: string
): Promise<{ id: string; appId: string }> {
  const result = await emulator.control<{ product: { id: string; appId: string } }>('POST', '/products', {
    developerId,
    name
  })
  expect(result.status).toBe(201)
  return result.body.product
}

/** A service API call from outside the page (a plugin, say). */
export async function callService(
  emulator: ServedEmulator,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {}
) {
  const response = await fetch(`${emulator.baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  const text = await response.text()
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null }
}

/**
 * axe-core over the page as it is now: no serious or critical violation. Called on every screen
 * (responsive.spec.ts) and at every state a spec saves a screenshot of (shot()).
 */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 5)
          .join(', ')}`
    )
  expect.soft(serious, `axe on ${where}`).toEqual([])
}

/**
 * A small HTML page served on another origin than the emulator's (`localhost` against its
 * 127.0.0.1, on a port of its own): a vendor's web view page, or an attacker's.
 */
export async function pageOnAnotherOrigin(html: string): Promise<{ url: string; close: () => void }> {
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html')
    response.end(html)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/`, close: () => server.close() }
}
