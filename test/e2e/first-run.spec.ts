import { expect, test } from './fixtures'
import { goTo, openApp, shot } from './support'

test('first run: a developer and a product with the offered defaults, then the credential screen', async ({
  page,
  emulator
}) => {
  await openApp(page, emulator)

  // The admin token left the address bar for sessionStorage.
  await expect(page).not.toHaveURL(/admin-token/)
  expect(await page.evaluate('window.sessionStorage.getItem("ple.adminToken")')).toBe(emulator.adminToken)

  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible()
  await expect(page.getByTestId('base-url')).toHaveText(emulator.baseUrl)
  await expect(page.getByTestId('count-developers')).toContainText('0')
  const firstRun = page.getByTestId('first-run')
  await expect(firstRun).toBeVisible()
  await expect(firstRun.getByRole('button', { name: 'Create product' })).toBeDisabled()
  await shot(page, 'overview-first-run')

  await firstRun.getByRole('button', { name: 'Create developer' }).click()
  // The defaults are offered in a dialog; kept here.
  const naming = page.getByRole('dialog', { name: 'Create a developer' })
  await expect(naming.getByLabel('Name')).toHaveValue('My Studio')
  await expect(naming.getByLabel('Email')).toHaveValue('developer@example.test')
  await naming.getByRole('button', { name: 'Create developer' }).click()
  await expect(naming).toBeHidden()
  await expect(firstRun).toContainText('Acting as My Studio')
  await firstRun.getByRole('button', { name: 'Create product' }).click()
  const productNaming = page.getByRole('dialog', { name: 'Create a product' })
  await expect(productNaming.getByLabel('Product name')).toHaveValue('My First Plugin')
  await productNaming.getByRole('button', { name: 'Create product' }).click()
  await expect(productNaming).toBeHidden()
  await expect(firstRun).toContainText('My First Plugin is ready')

  const developers = await emulator.control<{ developers: { id: string; name: string }[] }>('GET', '/developers')
  expect(developers.body.developers.map((d) => d.name)).toEqual(['My Studio'])
  const products = await emulator.control<{ products: { id: string; name: string; developerId: string }[] }>(
    'GET',
    '/products'
  )
  expect(products.body.products).toHaveLength(1)
  expect(products.body.products[0]?.developerId).toBe(developers.body.developers[0]?.id)
  await expect(page.getByTestId('count-products')).toContainText('1')

  await firstRun.getByRole('link', { name: 'Go to credentials' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Credentials' })).toBeVisible()
  await expect(page.getByText('No credential yet')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Create credential' })).toBeEnabled()
})

test('a reload keeps the session; a wrong token asks for the right one', async ({ page, browser, emulator }) => {
  await openApp(page, emulator)
  await page.reload()
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible()
  await expect(page.getByTestId('base-url')).toHaveText(emulator.baseUrl)

  const context = await browser.newContext()
  try {
    const other = await context.newPage()
    await other.goto(`${emulator.baseUrl}/#admin-token=not-the-token`)
    await expect(other.getByRole('heading', { name: 'Admin token needed' })).toBeVisible()
    await expect(other.getByRole('alert')).toContainText('INVALID_TOKEN')
    await other.getByLabel('Admin token').fill(emulator.adminToken)
    await other.getByRole('button', { name: 'Connect' }).click()
    await expect(other.getByRole('navigation', { name: 'Screens' })).toBeVisible()
  } finally {
    await context.close()
  }
})

test('every screen is reachable from the navigation, by keyboard too', async ({ page, emulator }) => {
  await openApp(page, emulator)
  const nav = page.getByRole('navigation', { name: 'Screens' })
  const screens: [string, string][] = [
    ['Developers', 'Developers & products'],
    ['Credentials', 'Credentials'],
    ['Connection tester', 'Connection tester'],
    ['Library', 'Library viewer'],
    ['Requests', 'Requests'],
    ['Scenarios & settings', 'Scenarios & settings'],
    ['Overview', 'Overview']
  ]
  for (const [link, title] of screens) {
    await nav.getByRole('link', { name: link }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await expect(nav.getByRole('link', { name: link })).toHaveAttribute('aria-current', 'page')
  }
  // A route the app does not know falls back to the overview.
  await goTo(page, '#/nowhere')
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible()
})
