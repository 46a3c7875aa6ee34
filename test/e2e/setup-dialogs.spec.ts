import { expect, test } from './fixtures'
import { createDeveloper, goTo, openApp, shot } from './support'

test('the quick start and New customer offer their defaults and take a chosen name and email', async ({
  page,
  emulator
}) => {
  await openApp(page, emulator)
  await page.getByTestId('first-run').getByRole('button', { name: 'Create developer' }).click()
  const naming = page.getByRole('dialog', { name: 'Create a developer' })
  await expect(naming.getByLabel('Name')).toHaveValue('My Studio')
  await naming.getByLabel('Name').fill('Nightfall Audio')
  await naming.getByLabel('Email').fill('hello@nightfall.test')
  await shot(page, 'create-developer-dialog')
  await naming.getByRole('button', { name: 'Create developer' }).click()
  await expect(naming).toBeHidden()
  await expect(page.getByText('Now acting as Nightfall Audio')).toBeVisible()
  const developers = await emulator.control<{ developers: { name: string; email: string }[] }>('GET', '/developers')
  expect(developers.body.developers).toMatchObject([{ name: 'Nightfall Audio', email: 'hello@nightfall.test' }])

  // The product step names its owner and takes a chosen name.
  await page.getByTestId('first-run').getByRole('button', { name: 'Create product' }).click()
  const product = page.getByRole('dialog', { name: 'Create a product' })
  await expect(product).toContainText('It belongs to Nightfall Audio')
  await product.getByLabel('Product name').fill('Dusk Reverb')
  await product.getByRole('button', { name: 'Create product' }).click()
  await expect(page.getByTestId('first-run')).toContainText('Dusk Reverb is ready')

  await goTo(page, '#/library')
  await page.getByRole('button', { name: 'New customer' }).click()
  const customer = page.getByRole('dialog', { name: 'New customer' })
  await expect(customer.getByLabel('Name')).toHaveValue('Test Customer 1')
  await expect(customer.getByLabel('Email')).toHaveValue(/^customer1-.+@example\.test$/)
  await customer.getByLabel('Name').fill('Alex Rivera')
  await customer.getByLabel('Email').fill('alex@rivera.test')
  await customer.getByRole('button', { name: 'Create customer' }).click()
  await expect(customer).toBeHidden()
  await expect(page.getByTestId('library-customer').locator('option:checked')).toHaveText(
    'Alex Rivera (alex@rivera.test)'
  )
  const customers = await emulator.control<{ customers: { name: string; email: string }[] }>('GET', '/customers')
  expect(customers.body.customers.map((c) => [c.name, c.email])).toEqual([['Alex Rivera', 'alex@rivera.test']])

  // Cancel creates nothing.
  await page.getByRole('button', { name: 'New customer' }).click()
  await customer.getByRole('button', { name: 'Cancel' }).click()
  await expect(customer).toBeHidden()
  expect((await emulator.control<{ customers: unknown[] }>('GET', '/customers')).body.customers).toHaveLength(1)
})

test('a second developer becomes the acting one, so the next product is theirs', async ({ page, emulator }) => {
  const first = await createDeveloper(emulator, { email: 'first@studio.test', name: 'First Studio' })
  await openApp(page, emulator, '#/developers')
  await expect(page.getByRole('combobox', { name: /Acting as/ })).toHaveValue(first.id)
  const form = page.getByRole('form', { name: 'Create a developer' })
  await expect(form.getByLabel('Name', { exact: true })).toHaveValue('Studio 2')
  await expect(form.getByLabel('Email')).toHaveValue('developer2@example.test')
  await form.getByLabel('Name', { exact: true }).fill('Second Studio')
  await form.getByRole('button', { name: 'Create developer' }).click()
  await expect(page.getByText('Now acting as Second Studio')).toBeVisible()
  const second = (
    await emulator.control<{ developers: { id: string; name: string }[] }>('GET', '/developers')
  ).body.developers.find((d) => d.name === 'Second Studio')
  expect(second).toBeDefined()
  await expect(page.getByRole('combobox', { name: /Acting as/ })).toHaveValue(second!.id)
  // The form offers the next defaults.
  await expect(form.getByLabel('Email')).toHaveValue('developer3@example.test')

  // The next product goes to the new developer.
  await page.getByLabel('Product name').fill('Second Reverb')
  await page.getByRole('button', { name: 'Create product' }).click()
  await expect(page.getByText('Product created')).toBeVisible()
  const products = await emulator.control<{ products: { name: string; developerId: string }[] }>('GET', '/products')
  expect(products.body.products).toEqual([expect.objectContaining({ name: 'Second Reverb', developerId: second!.id })])
})
