import { expect, test } from './fixtures'
import { callService, openApp } from './support'

test('a rule switched from latency to rate limit is saved without the latency wait and answers 429', async ({
  page,
  emulator
}) => {
  await openApp(page, emulator, '#/scenarios')
  const editor = page.getByTestId('fault-editor')
  await editor.getByRole('button', { name: 'Empty rule' }).click()
  const row = editor.getByTestId('fault-rule-0')
  // An empty rule is empty (issue 36): the delay typed here must not follow the rule into another kind.
  await expect(row.getByLabel('Delay (ms)')).toHaveValue('')
  await row.getByLabel('Delay (ms)').fill('1500')
  await row.getByTestId('fault-route').fill('/api/license/v1/activate')
  await row.getByTestId('fault-kind').selectOption('rate_limit')
  // The wait field of the new kind starts empty; the summary states every effect.
  await expect(row.getByLabel('Wait first (ms)')).toHaveValue('')
  await expect(row.getByLabel('Retry-After (s)')).toHaveValue('1')
  await expect(row).toContainText('Any method /api/license/v1/activate → answers 429, Retry-After 1 s')
  // A wait typed on purpose shows up in the summary.
  await row.getByLabel('Wait first (ms)').fill('250')
  await expect(row).toContainText('answers 429 after 250 ms, Retry-After 1 s')
  await row.getByLabel('Wait first (ms)').fill('')
  await editor.getByTestId('apply-faults').click()
  await expect(editor).toContainText('1 active')

  const saved = await emulator.control<{ rules: Record<string, unknown>[] }>('GET', '/faults')
  expect(saved.body.rules).toHaveLength(1)
  expect(saved.body.rules[0]).toMatchObject({ route: '/api/license/v1/activate', kind: 'rate_limit', retryAfterS: 1 })
  expect(saved.body.rules[0]?.ms ?? null).toBeNull()
  expect(saved.body.rules[0]?.jitterMs ?? null).toBeNull()

  const limited = await callService(emulator, 'POST', '/api/license/v1/activate', {})
  expect(limited.status).toBe(429)
})
