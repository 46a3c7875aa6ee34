import { expect, test } from './fixtures'
import { callService, DEMO, goTo, loadPreset, openApp } from './support'

// Issue 36, "held to": a change made elsewhere (a script on the control plane, another window)
// shows on the open screen, forms' saved values included, and again after navigating away and back.

const DAY_S = 86_400

test('the settings, fault rules, clock, upstream and credential forms show what a script changed, open and after navigating', async ({
  page,
  emulator
}) => {
  await loadPreset(emulator, 'full-library')
  await openApp(page, emulator, '#/scenarios')
  const settings = page.getByTestId('server-settings')
  await expect(settings.getByTestId('header-prefix')).toHaveValue('svc')
  try {
    // Settings, fault rules, the clock and the upstream, changed by a script with the screen open.
    expect(
      (await emulator.control('PUT', '/settings', { headerPrefix: 'acme', strict: true, subscriptionGraceDays: 3 }))
        .status
    ).toBe(200)
    expect(
      (
        await emulator.control('PUT', '/faults', {
          rules: [{ route: '/api/license/v1/validate', kind: 'error', status: 503, times: 4 }]
        })
      ).status
    ).toBe(200)
    expect((await emulator.control('PUT', '/clock', { offsetS: 3 * DAY_S })).status).toBe(200)
    expect(
      (await emulator.control('PUT', '/upstream', { url: 'http://127.0.0.1:9', routes: ['/api/license/**'] })).status
    ).toBe(200)
    const expectScriptedValues = async () => {
      await expect(settings.getByTestId('header-prefix')).toHaveValue('acme')
      await expect(settings.getByTestId('strict-mode')).toBeChecked()
      await expect(settings.getByTestId('grace-days')).toHaveValue('3')
      const rule = page.getByTestId('fault-editor').getByTestId('fault-rule-0')
      await expect(rule.getByTestId('fault-route')).toHaveValue('/api/license/v1/validate')
      await expect(rule.getByTestId('fault-times')).toHaveValue('4')
      await expect(page.getByTestId('clock-card').getByTestId('clock-offset')).toHaveText('+3 days')
      const inThreeDays = await page.evaluate<string>(`(() => {
        const d = new Date(Date.now() + ${3 * DAY_S * 1000})
        return d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-' + String(d.getDate()).padStart(2, '0')
      })()`)
      await expect(page.getByTestId('clock-card').getByLabel("Set the emulator's now")).toHaveValue(
        new RegExp(`^${inThreeDays}T`)
      )
      const upstream = page.getByTestId('upstream-card')
      await expect(upstream.getByTestId('upstream-url')).toHaveValue('http://127.0.0.1:9')
      await expect(upstream.getByTestId('upstream-routes')).toHaveValue('/api/license/**')
    }
    await expectScriptedValues()
    await goTo(page, '#/library')
    await expect(page.getByTestId('library-licenses')).toBeVisible()
    await goTo(page, '#/scenarios')
    await expectScriptedValues()

    // The credential rotated by a script: the Credentials screen shows the new key, open and after navigating.
    await goTo(page, `#/credentials?product=${DEMO.productId}`)
    const card = page.getByTestId('credential-card')
    await expect(card).toContainText(DEMO.appId)
    const session = await emulator.control<{ token: string }>('POST', '/developers/dev_demo/session')
    expect(session.status).toBe(200)
    const rotated = await callService(
      emulator,
      'POST',
      `/api/developer/plugin-keys/products/${DEMO.productId}/rotate-key`,
      {},
      { authorization: `Bearer ${session.body.token}` }
    )
    expect(rotated.status).toBe(201)
    const preview = (rotated.body as { credential: { pluginKeyPreview: string } }).credential.pluginKeyPreview
    await expect(card).toContainText(preview)
    await goTo(page, '#/overview')
    await goTo(page, `#/credentials?product=${DEMO.productId}`)
    await expect(card).toContainText(preview)
  } finally {
    // Settings and the upstream outlive a reset; the next test expects the defaults.
    await emulator.control('PUT', '/settings', { headerPrefix: 'svc', strict: false, subscriptionGraceDays: 7 })
    await emulator.control('PUT', '/upstream', { url: null })
  }
})
