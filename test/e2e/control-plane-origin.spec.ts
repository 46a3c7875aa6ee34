import { expect, test } from './fixtures'
import { pageOnAnotherOrigin } from './support'

// A page on another origin must not be able to drive the control plane, even if it somehow
// knew the admin token: the browser's CORS rules and the server's Origin check both stand in
// the way (docs/api.md section 6).

test('a page on another origin cannot create data through the control plane', async ({ page, emulator }) => {
  const attacker = await pageOnAnotherOrigin('<!doctype html><title>elsewhere</title><p>another site</p>')
  try {
    await page.goto(attacker.url)
    const outcomes = await page.evaluate(
      async ({ baseUrl, adminToken }) => {
        const attempt = async (init: RequestInit) => {
          try {
            const response = await fetch(`${baseUrl}/_emulator/developers`, init)
            return `status ${response.status}`
          } catch {
            return 'blocked'
          }
        }
        return {
          // Needs a preflight (custom header, JSON): the browser blocks it.
          withToken: await attempt({
            method: 'POST',
            headers: { 'x-emulator-token': adminToken, 'content-type': 'application/json' },
            body: JSON.stringify({ email: 'attacker@example.test' })
          }),
          // A "simple" request goes out without a preflight, but carries the foreign Origin.
          simple: await attempt({
            method: 'POST',
            mode: 'no-cors',
            headers: { 'content-type': 'text/plain' },
            body: '{"email":"attacker2@example.test"}'
          })
        }
      },
      { baseUrl: emulator.baseUrl, adminToken: emulator.adminToken }
    )
    expect(outcomes.withToken).toBe('blocked')
    const developers = await emulator.control<{ developers: { email: string }[] }>('GET', '/developers')
    expect(developers.body.developers).toEqual([])
  } finally {
    attacker.close()
  }
})

test('the control plane refuses a foreign Origin outright', async ({ emulator }) => {
  const response = await fetch(`${emulator.baseUrl}/_emulator/developers`, {
    method: 'POST',
    headers: {
      'x-emulator-token': emulator.adminToken,
      'content-type': 'application/json',
      origin: 'http://evil.example'
    },
    body: JSON.stringify({ email: 'x@example.test' })
  })
  expect(response.status).toBe(403)
  expect(((await response.json()) as { error: string }).error).toBe('ORIGIN_NOT_ALLOWED')
})
