import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'

import { startDriftDouble } from '../support/drift-double'
import { cardEdgeProblems } from './card-edges'
import { expect, startServe, test } from './fixtures'
import type { ServedEmulator } from './fixtures'
import {
  brokenMoments,
  buttonRowsBroken,
  expectCleanLayout,
  expectDialogControlsReachable,
  partsBrokenMidWord,
  selectsCut,
  wrappedButtonLabels
} from './layout-checks'
import { callService, DEMO, expectAccessible, goTo, loadPreset, openApp } from './support'

/**
 * Issue 36, "held to": every screen, populated, at window sizes the other specs mostly do not use
 * (760 and 600 px high is the smallest the UI supports; 1100 is where the sidebar unfolds; 1180x820
 * between it and 1280, where the Requests panes once sat side by side too narrow; 1280x720 and
 * 1366x768 the laptops QA uses; 1536x864 a 1920x1080 laptop at 125%; 1600x600 wide and short;
 * 1920x1080). One page, one state, the
 * sizes set in turn; the Recordings screen again while recording, replaying and stopped.
 * Screenshots of each screen at 1280x800 and 760x600 go to test-results/screenshots/every-screen/
 * (docs/ui.md shows them, copied from there by hand).
 */
const SIZES = [
  { width: 760, height: 600 },
  { width: 1100, height: 650 },
  { width: 1180, height: 820 },
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
  { width: 1536, height: 864 },
  { width: 1600, height: 600 },
  { width: 1920, height: 1080 }
]

const SHOTS = join(process.cwd(), 'test-results', 'screenshots', 'every-screen')

const CREDENTIAL = {
  'x-svc-app-id': DEMO.appId,
  'x-svc-plugin-key': DEMO.pluginKey,
  'x-svc-plugin-secret': DEMO.pluginSecret
}

interface Screen {
  hash: string
  title: string
  /** What shows once the screen's data is in. */
  ready: (page: Page) => Locator
  /** A dialog the screen opens, checked at every size; `close` leaves it. */
  dialog?: { open: (page: Page) => Promise<Locator>; close: (dialog: Locator) => Promise<void> }
}

const SCREENS: Screen[] = [
  { hash: '#/overview', title: 'Overview', ready: (page) => page.getByTestId('count-licenses') },
  {
    hash: '#/developers',
    title: 'Developers & products',
    ready: (page) => page.getByRole('main').getByText(DEMO.productName).first()
  },
  {
    hash: `#/credentials?product=${DEMO.productId}`,
    title: 'Credentials',
    ready: (page) => page.getByTestId('connection-status'),
    dialog: {
      open: async (page) => {
        await page.getByTestId('export-credential').click()
        return page.getByRole('dialog', { name: 'Export the runtime config' })
      },
      close: (dialog) => dialog.getByRole('button', { name: 'Cancel' }).click()
    }
  },
  {
    hash: `#/tester?product=${DEMO.productId}`,
    title: 'Connection tester',
    ready: (page) => page.getByTestId('step-validate-outcome')
  },
  {
    hash: '#/library',
    title: 'Library viewer',
    ready: (page) => page.getByTestId('library-licenses'),
    dialog: {
      open: async (page) => {
        await page.getByRole('button', { name: 'New customer' }).click()
        return page.getByRole('dialog', { name: 'New customer' })
      },
      close: (dialog) => dialog.getByRole('button', { name: 'Cancel' }).click()
    }
  },
  // Live again after the screen came back (the row selected earlier keeps its detail open).
  { hash: '#/requests', title: 'Requests', ready: (page) => page.getByTestId('live-indicator') },
  {
    hash: '#/drift',
    title: 'Drift',
    ready: (page) => page.getByTestId('drift-finding').first(),
    dialog: {
      open: async (page) => {
        await page.getByTestId('drift-clear').click()
        return page.getByTestId('drift-clear-dialog')
      },
      close: (dialog) => dialog.getByRole('button', { name: 'Cancel' }).click()
    }
  },
  {
    hash: '#/recordings',
    title: 'Recordings',
    ready: (page) => page.locator('[data-testid^="recording-row-"]').first()
  },
  {
    hash: '#/scenarios',
    title: 'Scenarios & settings',
    ready: (page) => page.getByTestId('fault-rule-0'),
    dialog: {
      open: async (page) => {
        await page.getByRole('button', { name: 'Reset', exact: true }).click()
        return page.getByRole('dialog', { name: 'Reset the emulator?' })
      },
      close: (dialog) => dialog.getByRole('button', { name: 'Cancel' }).click()
    }
  }
]

/** Text anywhere on the page shortened with an ellipsis: readable only by a hover. */
async function hoverOnlyText(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const cut = []
    for (const element of document.querySelectorAll('body *')) {
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue
      if (element.closest('.visually-hidden, [aria-hidden="true"], dialog:not([open])')) continue
      const s = getComputedStyle(element)
      if (s.textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth + 1 && element.textContent.trim())
        cut.push(element.textContent.trim().slice(0, 60) + ' (.' + [...element.classList].join('.') + ')')
    }
    return [...new Set(cut)]
  })()`)
}

/** Clean at the top of the screen and one window further down; at 1280 and up nothing needs a hover. */
async function expectScreenHolds(page: Page, where: string, wide: boolean): Promise<void> {
  for (const scrolled of [false, true]) {
    await page.evaluate(
      scrolled
        ? '(() => { const main = document.querySelector(".content"); main.scrollTo(0, main.clientHeight - 80) })()'
        : 'document.querySelector(".content").scrollTo(0, 0)'
    )
    const at = `${where}${scrolled ? ', scrolled' : ''}`
    await expectCleanLayout(page, at)
    const cards = await cardEdgeProblems(page)
    expect.soft(cards.pastEdge, `text past its card's edge on ${at}`).toEqual([])
    expect.soft(cards.shredded, `a value wrapped a few letters a line on ${at}`).toEqual([])
    expect.soft(await partsBrokenMidWord(page), `a path or code broken inside a word on ${at}`).toEqual([])
    expect.soft(await wrappedButtonLabels(page), `a button's label not on one line on ${at}`).toEqual([])
    expect.soft(await brokenMoments(page), `a time's relative hint broken over two lines on ${at}`).toEqual([])
    if (wide) {
      expect.soft(await hoverOnlyText(page), `text cut by an ellipsis (hover to read) on ${at}`).toEqual([])
      expect.soft(await selectsCut(page), `a select's chosen option cut on ${at}`).toEqual([])
    }
  }
  await page.evaluate('document.querySelector(".content").scrollTo(0, 0)')
}

/** The full library, plugin calls, two fault rules, a recording and drift findings (forwarded to a drifting upstream for one call). */
async function populate(emulator: ServedEmulator, upstreamUrl: string): Promise<void> {
  await loadPreset(emulator, 'full-library')
  const customer = await emulator.control<{ customer: { id: string } }>('POST', '/customers', {
    email: 'customer12-mhx3k2p9@example.test',
    name: 'Test Customer 12'
  })
  await emulator.control('POST', '/purchases', { customerId: customer.body.customer.id, productId: DEMO.productId })
  const body = { license_key: DEMO.perpetualKey, instance_id: 'studio-mac-with-a-long-machine-name-01' }
  for (const route of ['activate', 'validate', 'deactivate'])
    await callService(emulator, 'POST', `/api/license/v1/${route}`, body, CREDENTIAL)
  await callService(
    emulator,
    'POST',
    '/api/license/v1/validate',
    { license_key: 'NOPE0-NOPE0-NOPE0-NOPE0-NOPE0' },
    CREDENTIAL
  )
  const recording = await emulator.control<{ recording: { id: string } }>('POST', '/recordings', {
    name: 'EXPIRED subscription for ACME Audio, Windows'
  })
  expect(recording.status).toBe(201)
  // Forwarded to the drifting upstream while recording: findings for the Drift screen, exchanges for the recording.
  expect((await emulator.control('PUT', '/upstream', { url: upstreamUrl })).status).toBe(200)
  await callService(emulator, 'POST', '/api/license/v1/validate', body, CREDENTIAL)
  await emulator.control('POST', `/recordings/${recording.body.recording.id}/stop`)
  // Forwarding off again: the UI's own management calls (the tester's reveal) go to this emulator.
  await emulator.control('PUT', '/upstream', { url: null })
  // The drift of the one forwarded call is that call's alone: not of the emulator's answers beside it.
  const logged = await emulator.control<{ requests: { id: number; answeredBy: string }[] }>('GET', '/requests')
  for (const entry of logged.body.requests) {
    const drift = await emulator.control<{ drift: unknown }>('GET', `/drift/requests/${entry.id}`)
    expect(drift.body.drift === null, `drift of request ${entry.id}`).toBe(entry.answeredBy !== 'upstream')
  }
  const faults = await emulator.control('PUT', '/faults', {
    rules: [
      { route: '/api/downloads/**', kind: 'latency', ms: 1500 },
      {
        id: 'validate-fails-for-one-customer',
        route: '/api/license/v1/validate',
        kind: 'error',
        status: 503,
        match: { field: 'license_key', equals: 'DEMO2-SUBSC-RIPTI-ON000-00002' },
        times: 5
      }
    ]
  })
  expect(faults.status, JSON.stringify(faults.body)).toBe(200)
}

test('every screen, populated, holds at 760x600, 1100x650, 1180x820, 1280x720, 1366x768, 1536x864, 1600x600 and 1920x1080', async ({
  page,
  emulator
}) => {
  test.setTimeout(180_000)
  const platform = await startServe()
  const double = await startDriftDouble(platform.emulator.baseUrl)
  try {
    expect((await platform.emulator.control('POST', '/presets/full-library')).status).toBe(200)
    double.mutation = 'UNKNOWN_FIELD'
    await populate(emulator, double.baseUrl)
    mkdirSync(SHOTS, { recursive: true })

    await page.setViewportSize({ width: 1280, height: 800 })
    await openApp(page, emulator, `#/tester?product=${DEMO.productId}`)
    // The tester with results: verify and validate run, as the preset's developer.
    await expect(page.getByLabel('Acting as')).toHaveValue('dev_demo')
    await page.getByRole('button', { name: 'Fill key and secret (reveal)' }).click()
    await page.getByTestId('tester-license-key').fill(DEMO.perpetualKey)
    for (const step of ['verify', 'validate']) {
      const card = page.getByTestId(`step-${step}`)
      await card.getByRole('button', { name: new RegExp(`^${step}$`, 'i') }).click()
      await expect(card.getByTestId(`step-${step}-outcome`)).toBeVisible()
    }
    // The library on the customer with the long email.
    await goTo(page, '#/library')
    await expect(page.getByTestId('library-licenses')).toBeVisible()
    // The inspector with a licensing call's detail open.
    await goTo(page, '#/requests')
    await page.getByRole('row').filter({ hasText: '/api/license/v1/activate' }).first().getByRole('button').click()
    await expect(page.getByTestId('request-drift-mark')).toHaveCount(1)

    for (const screen of SCREENS) {
      await goTo(page, screen.hash)
      await expect(page.getByRole('heading', { level: 1, name: screen.title })).toBeVisible()
      await expect(screen.ready(page)).toBeVisible()
      const name = screen.hash.slice(2).split('?')[0]
      await page.setViewportSize({ width: 1280, height: 800 })
      // No hover state in the screenshot.
      await page.mouse.move(0, 799)
      await page.screenshot({ path: join(SHOTS, `${name}.png`) })
      await expectAccessible(page, screen.title)
      for (const size of SIZES) {
        await page.setViewportSize(size)
        const where = `${screen.title} at ${size.width}x${size.height}`
        await expectScreenHolds(page, where, size.width >= 1280)
        if (size.width === 760) await page.screenshot({ path: join(SHOTS, `${name}-760.png`) })
        if (screen.dialog) {
          const dialog = await screen.dialog.open(page)
          await expect(dialog).toBeVisible()
          await expectCleanLayout(page, `${where}, dialog`)
          await expectDialogControlsReachable(page, `${where}, dialog`)
          await screen.dialog.close(dialog)
          await expect(dialog).toBeHidden()
        }
      }
    }
  } finally {
    // Recordings outlive a reset: the next file starts without this one.
    const recordings = await emulator.control<{ recordings: { id: string }[] }>('GET', '/recordings')
    for (const recording of recordings.body.recordings ?? [])
      await emulator.control('DELETE', `/recordings/${recording.id}`)
    await emulator.control('PUT', '/upstream', { url: null })
    await double.close()
    await platform.stop()
  }
})

/**
 * The Recordings screen in the states its buttons change in: a recording running (Start a new
 * one, Stop), one replayed (strict, re-signing) and none, through a second `serve` as the upstream.
 * In a half-width Record card at 1280x720, Stop fell onto a line of its own under the name's hint,
 * and Delete went under Download in every row: an action and its opposite stay on one line.
 */
test('the Recordings screen holds while recording, replaying and stopped, 1280x720 and 1366x768 first', async ({
  page,
  emulator
}) => {
  test.setTimeout(120_000)
  const platform = await startServe()
  try {
    expect((await platform.emulator.control('POST', '/presets/full-library')).status).toBe(200)
    await loadPreset(emulator, 'full-library')
    expect((await emulator.control('PUT', '/upstream', { url: platform.emulator.baseUrl })).status).toBe(200)
    const body = { license_key: DEMO.perpetualKey, instance_id: 'studio-mac-with-a-long-machine-name-01' }
    const done = await emulator.control<{ recording: { id: string } }>('POST', '/recordings', {
      name: 'EXPIRED subscription for ACME Audio, Windows'
    })
    expect(done.status).toBe(201)
    for (const route of ['activate', 'validate'])
      expect((await callService(emulator, 'POST', `/api/license/v1/${route}`, body, CREDENTIAL)).status).toBeLessThan(
        300
      )
    await emulator.control('POST', `/recordings/${done.body.recording.id}/stop`)
    const running = await emulator.control('POST', '/recordings', {
      name: 'Trial expiry on macOS 14 with the German storefront'
    })
    expect(running.status).toBe(201)
    await callService(emulator, 'POST', '/api/license/v1/validate', body, CREDENTIAL)
    mkdirSync(SHOTS, { recursive: true })

    await page.setViewportSize({ width: 1280, height: 720 })
    await openApp(page, emulator, '#/recordings')
    await expect(page.getByRole('heading', { level: 1, name: 'Recordings' })).toBeVisible()
    await expect(page.getByTestId('record-running')).toContainText('German storefront')
    await expect.soft(page.getByTestId('record-running')).toContainText(': 1 exchange so far')
    await expect(page.locator('[data-testid^="recording-row-"]')).toHaveCount(2)
    const states: { state: string; enter: () => Promise<void> }[] = [
      { state: 'recording', enter: async () => {} },
      {
        state: 'replaying',
        enter: async () => {
          await page.getByTestId('recording-stop').click()
          await expect(page.getByTestId('record-running')).toHaveCount(0)
          await page.getByTestId('replay-strict').check()
          await page.getByTestId('replay-resign').check()
          await page.getByTestId('replay-on').click()
          await expect(page.getByTestId('replay-state')).toContainText('re-signing license tokens')
        }
      },
      {
        state: 'stopped',
        enter: async () => {
          await page.getByTestId('replay-off').click()
          await expect(page.getByTestId('replay-state')).toContainText('No recording is replayed')
        }
      }
    ]
    const laptopsFirst = [
      { width: 1280, height: 720 },
      { width: 1366, height: 768 },
      ...SIZES.filter((size) => size.height !== 720 && size.height !== 768)
    ]
    for (const { state, enter } of states) {
      await page.setViewportSize({ width: 1280, height: 720 })
      await enter()
      for (const size of laptopsFirst) {
        await page.setViewportSize(size)
        const where = `Recordings, ${state}, at ${size.width}x${size.height}`
        await page.mouse.move(0, size.height - 1)
        await expectScreenHolds(page, where, size.width >= 1280)
        for (const group of [
          '[data-testid="record-card"] form',
          '[data-testid="replay-card"]',
          '[data-testid^="recording-row-"]'
        ])
          expect
            .soft(await buttonRowsBroken(page, group), `buttons of ${group} not on one line on ${where}`)
            .toEqual([])
        if (size.width === 1280 || size.width === 1366)
          await page.screenshot({ path: join(SHOTS, `recordings-${state}-${size.width}.png`) })
      }
    }
    await expectAccessible(page, 'Recordings, stopped')
  } finally {
    await emulator.control('PUT', '/replay', { recording: null })
    await emulator.control('PUT', '/upstream', { url: null })
    const recordings = await emulator.control<{ recordings: { id: string }[] }>('GET', '/recordings')
    for (const recording of recordings.body.recordings ?? [])
      await emulator.control('DELETE', `/recordings/${recording.id}`)
    await platform.stop()
  }
})
