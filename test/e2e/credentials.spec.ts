import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'

import { createSecretBox } from '../../src/core/crypto/secret-box'
import { expect, test } from './fixtures'
import { createDeveloper, createProduct, goTo, loadPreset, openApp, shot } from './support'

test('create, reveal, export, rotate and revoke a product credential', async ({ page, context, emulator }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  const developer = await createDeveloper(emulator, { email: 'dev@studio.test', name: 'Studio Dev' })
  const product = await createProduct(emulator, developer.id, 'Tape Delay')
  await openApp(page, emulator, `#/credentials?product=${product.id}`)

  await expect(page.getByText('No credential yet')).toBeVisible()
  await page.getByRole('button', { name: 'Create credential' }).click()
  const confirm = page.getByRole('dialog', { name: 'Create the credential' })
  await confirm.getByLabel('Reason (optional)').fill('first package build')
  await confirm.getByRole('button', { name: 'Create', exact: true }).click()

  // The reveal after create: says how the secret can be seen again (this emulator keeps it sealed
  // under its runtime key, as the record's "Recoverable: Yes" says), masks by default, copies and exports.
  const reveal = page.getByRole('dialog', { name: 'Credential created' })
  await expect(reveal).toBeVisible()
  // One true thing (issue 36): not "the only place it is shown" and then "can show it again".
  await expect(reveal.getByTestId('reveal-warning')).toContainText('only Reveal secret shows it again')
  await expect(reveal.getByTestId('reveal-warning')).not.toContainText('the only place it is shown')
  await expect(reveal.getByTestId('reveal-warning')).not.toContainText('Only its hash is kept')
  await expect(reveal.getByTestId('reveal-app-id')).toHaveText(product.appId)
  const secretText = reveal.getByTestId('reveal-secret').locator('code')
  await expect(secretText).toHaveAttribute('data-shown', 'false')
  await expect(secretText).not.toContainText(/sk_[A-Za-z0-9]{8}/)
  await shot(page, 'credentials-reveal')
  await reveal.getByRole('button', { name: 'Show plugin secret' }).click()
  await expect(secretText).toHaveText(/^sk_[A-Za-z0-9]{20,}$/)
  const secret = (await secretText.textContent()) ?? ''
  await reveal.getByRole('button', { name: 'Show plugin key' }).click()
  const key = (await reveal.getByTestId('reveal-key').locator('code').textContent()) ?? ''
  expect(key).toMatch(/^pk_[A-Za-z0-9]{20,}$/)

  await reveal.getByRole('button', { name: 'Copy plugin secret' }).click()
  await expect(reveal.getByRole('button', { name: 'Copy plugin secret' })).toContainText('Copied')
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret)

  const envDownload = page.waitForEvent('download')
  await reveal.getByTestId('export-env').click()
  const env = await envDownload
  expect(env.suggestedFilename()).toBe('tape-delay.plugin.env')
  const envText = readFileSync(await env.path(), 'utf8')
  // The names the native client reads, with the public key it pins.
  const publicKey = (await (await fetch(`${emulator.baseUrl}/api/license/v1/public-key`)).json()) as {
    public_key_hex: string
    public_key_pem: string
  }
  expect(envText).toContain(`PLE_PLUGIN_SECRET="${secret}"`)
  expect(envText).toContain(`PLE_PRODUCT_ID="${product.id}"`)
  expect(envText).toContain(`PLE_DEVELOPER_ID="${developer.id}"`)
  expect(envText).toContain(`PLE_BASE_URL="${emulator.baseUrl}"`)
  expect(envText).toContain(`PLE_PUBLIC_KEY_HEX="${publicKey.public_key_hex}"`)

  const jsonDownload = page.waitForEvent('download')
  await reveal.getByTestId('export-json').click()
  const json = JSON.parse(readFileSync(await (await jsonDownload).path(), 'utf8')) as Record<string, string>
  expect(json).toEqual({
    appId: product.appId,
    pluginKey: key,
    pluginSecret: secret,
    productId: product.id,
    developerId: developer.id,
    environment: 'emulator',
    apiBaseUrl: emulator.baseUrl,
    headerPrefix: 'svc',
    publicKeyHex: publicKey.public_key_hex,
    publicKeyPem: publicKey.public_key_pem
  })

  const cppDownload = page.waitForEvent('download')
  await reveal.getByTestId('export-cpp').click()
  const cpp = readFileSync(await (await cppDownload).path(), 'utf8')
  expect(cpp).toContain('#pragma once')
  expect(cpp).toContain(`inline constexpr const char* kPluginSecret = "${secret}";`)
  expect(cpp).toContain(`inline constexpr const char* PLE_PUBLIC_KEY_HEX = "${publicKey.public_key_hex}";`)
  // The names the dialog promises are the names each file holds (issue 36: it promised PLE_APP_ID for the header).
  for (const name of await reveal.getByTestId('export-names-cpp').locator('code').allTextContents())
    expect(cpp).toContain(`inline constexpr const char* ${name} = `)
  for (const name of await reveal.getByTestId('export-names-env').locator('code').allTextContents())
    expect(envText).toContain(`${name}=`)

  // Focus stays in the dialog; Escape asks first (the secret is shown once), then closes it and the
  // material is gone from the page.
  for (let i = 0; i < 12; i++) await page.keyboard.press('Tab')
  expect(await page.evaluate('document.activeElement?.closest("dialog") !== null')).toBe(true)
  await page.keyboard.press('Escape')
  const confirmClose = reveal.getByTestId('reveal-confirm-close')
  await expect(confirmClose).toContainText('Only a new reveal (recorded in the audit trail) shows the secret again')
  await expect(confirmClose.getByRole('button', { name: 'Keep it open' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(confirmClose).toBeHidden()
  await expect(reveal.getByTestId('reveal-secret')).toBeVisible()
  await page.keyboard.press('Escape')
  await confirmClose.getByRole('button', { name: 'Close without it' }).focus()
  await page.keyboard.press('Enter')
  await expect(reveal).toBeHidden()
  await expect(page.locator('body')).not.toContainText(secret)

  // The record shows previews only, and the audit trail the reason.
  const record = page.getByTestId('credential-record')
  await expect(record.getByTestId('secret-preview')).toHaveText(`${secret.slice(0, 8)}...${secret.slice(-4)}`)
  await expect(page.getByTestId('audit-trail')).toContainText('first package build')

  // Reveal again (recoverable): same secret.
  await page.getByRole('button', { name: 'Reveal secret' }).click()
  await page
    .getByRole('dialog', { name: 'Reveal the full key and secret' })
    .getByRole('button', { name: 'Reveal', exact: true })
    .click()
  const revealed = page.getByRole('dialog', { name: 'Secret revealed' })
  await revealed.getByRole('button', { name: 'Show plugin secret' }).click()
  await expect(revealed.getByTestId('reveal-secret').locator('code')).toHaveText(secret)
  await revealed.getByRole('button', { name: 'Done' }).click()
  await expect(revealed).toBeHidden()
  await expect(page.getByTestId('credential-record')).toContainText('revealed 1 time')

  // Export from the Credentials screen itself: a recorded reveal, then the files.
  await page.getByTestId('export-credential').click()
  await page
    .getByRole('dialog', { name: 'Export the runtime config' })
    .getByRole('button', { name: 'Reveal and export' })
    .click()
  const exportDialog = page.getByRole('dialog', { name: 'Secret revealed' })
  const screenEnv = page.waitForEvent('download')
  await exportDialog.getByTestId('export-env').click()
  const screenEnvText = readFileSync(await (await screenEnv).path(), 'utf8')
  expect(screenEnvText).toContain(`PLE_APP_ID="${product.appId}"`)
  expect(screenEnvText).toContain(`PLE_PLUGIN_SECRET="${secret}"`)
  expect(screenEnvText).toContain(`PLE_PUBLIC_KEY_HEX="${publicKey.public_key_hex}"`)
  await exportDialog.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByTestId('credential-record')).toContainText('revealed 2 times')

  // Rotate the secret: a destructive action asks first; the new secret differs.
  await page.getByRole('button', { name: 'Rotate secret' }).click()
  const rotate = page.getByRole('dialog', { name: 'Rotate the plugin secret?' })
  await expect(rotate).toContainText('Packages must be regenerated')
  await rotate.getByLabel('Reason (optional)').fill('secret pasted in a chat')
  await rotate.getByRole('button', { name: 'Rotate secret' }).click()
  const rotated = page.getByRole('dialog', { name: 'Secret rotated' })
  await rotated.getByRole('button', { name: 'Show plugin secret' }).click()
  await expect(rotated.getByTestId('reveal-secret').locator('code')).toHaveText(/^sk_/)
  expect(await rotated.getByTestId('reveal-secret').locator('code').textContent()).not.toBe(secret)
  await expect(rotated.getByTestId('reveal-app-id')).toHaveText(product.appId)
  await rotated.getByRole('button', { name: 'Done' }).click()
  const history = page.getByTestId('credential-history')
  await expect(history.getByRole('row')).toHaveCount(3)
  await expect(history).toContainText('secret rotation')
  await expect(history).toContainText('secret pasted in a chat')

  // Revoke: asked, then the credential is revoked and Create is offered again.
  await page.getByRole('button', { name: 'Revoke' }).click()
  await page.getByRole('dialog', { name: 'Revoke the credential?' }).getByRole('button', { name: 'Revoke' }).click()
  await expect(page.getByTestId('credential-card').getByText('revoked').first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'Create credential' })).toBeEnabled()
  await expect(page.getByRole('button', { name: 'Reveal secret' })).toBeDisabled()
  const credentials = await emulator.control<{ credentials: { status: string }[] }>(
    'GET',
    `/products/${product.id}/credentials`
  )
  expect(credentials.body.credentials.map((c) => c.status)).toEqual(['revoked', 'revoked'])
  await expect(page.getByTestId('audit-trail')).toContainText('Revoked')
  // What the record says after a revoke is true, and no time reads as "moved back" with the clock untouched.
  await expect(page.getByTestId('credential-record')).toContainText('No: the credential is revoked')
  await expect(page.getByTestId('credential-card')).not.toContainText('moved back')
})

test('a legacy credential says its secret cannot be revealed and points to rotation', async ({ page, emulator }) => {
  await loadPreset(emulator, 'legacy-credential')
  await openApp(page, emulator, '#/credentials?product=prod_demo_synth')
  await expect(page.getByTestId('unrecoverable')).toContainText('cannot be revealed again')
  await expect(page.getByRole('button', { name: 'Reveal secret' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Rotate secret' })).toBeEnabled()
})

test('a secret sealed under another runtime key says so and points to rotation', async ({ page, emulator }) => {
  // A database made on another machine: its sealed copy was made under a runtime key this emulator does not hold.
  await loadPreset(emulator, 'full-library')
  const exported = await emulator.control<{ state: { credentials: Array<Record<string, unknown>> } }>('GET', '/state')
  const foreign = createSecretBox(randomBytes(32))
  const document = exported.body.state
  document.credentials = document.credentials.map((c) => ({
    ...c,
    sealedMaterial: foreign.seal(JSON.stringify({ pluginKey: 'pk_elsewhere', pluginSecret: 'sk_elsewhere' })),
    sealedKeyId: foreign.keyId
  }))
  expect((await emulator.control('PUT', '/state', document)).status).toBe(200)
  await openApp(page, emulator, '#/credentials?product=prod_demo_synth')
  await expect(page.getByTestId('unrecoverable')).toHaveText(
    /sealed under another runtime key: rotate to get new values/
  )
  await expect(page.getByRole('button', { name: 'Reveal secret' })).toBeDisabled()
  await shot(page, 'credentials-other-runtime-key')
  await page.getByRole('button', { name: 'Rotate secret' }).click()
  await page
    .getByRole('dialog', { name: 'Rotate the plugin secret?' })
    .getByRole('button', { name: 'Rotate secret' })
    .click()
  await page
    .getByRole('dialog', { name: /rotated/i })
    .getByRole('button', { name: 'Done' })
    .click()
  await expect(page.getByTestId('unrecoverable')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Reveal secret' })).toBeEnabled()
})

test('a developer sees only their products; an admin sees them all', async ({ page, emulator }) => {
  const own = await createDeveloper(emulator, { email: 'own@studio.test', name: 'Owner' })
  const other = await createDeveloper(emulator, { email: 'other@studio.test', name: 'Other' })
  await createProduct(emulator, own.id, 'Own Reverb')
  await createProduct(emulator, other.id, 'Other Compressor')
  await openApp(page, emulator, '#/credentials')
  const picker = page.getByRole('navigation', { name: 'Products' })
  await expect(picker.getByRole('link')).toHaveCount(1)
  await expect(picker).toContainText('Own Reverb')

  await goTo(page, '#/developers')
  await page.getByLabel('Email').fill('boss@studio.test')
  await page.getByLabel('Name', { exact: true }).fill('Boss')
  await page.getByLabel('Role').selectOption('admin')
  await page.getByRole('button', { name: 'Create developer' }).click()
  await expect(page.getByTestId('developer-list')).toContainText('Boss')
  // A new developer becomes the acting one, and a toast says so.
  await expect(page.getByText('Now acting as Boss')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'All products' })).toBeVisible()

  await goTo(page, '#/credentials')
  await expect(picker.getByRole('link')).toHaveCount(2)
  await expect(picker).toContainText('Other Compressor')
})
