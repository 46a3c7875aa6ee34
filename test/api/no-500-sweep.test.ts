import { beforeAll, describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'
import { productWithCredential } from '../support/plugin-client'

// Every route in the OpenAPI document, fed bad input of every kind a client could send, with
// every kind of credential: the answer is always a 4xx (or a 2xx) in the contract's shape,
// never a 500, and the server keeps answering.

let credential: Awaited<ReturnType<typeof productWithCredential>>
let routes: { method: string; path: string }[] = []

const emu = useEmulator()
beforeAll(async () => {
  credential = await productWithCredential(emu, 'Sweep Synth')
  const openapi = (await emu.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> }
  routes = Object.entries(openapi.paths).flatMap(([path, methods]) =>
    Object.keys(methods)
      .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map((method) => ({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, (param) => (param === '{productId}' ? credential.productId : 'x%20y'))
      }))
  )
})

const BODIES: readonly (string | undefined)[] = [
  undefined,
  '',
  '{',
  'null',
  '[]',
  '"text"',
  '42',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
  JSON.stringify({ license_key: ['a'], instance_id: { a: 1 }, productId: 7, email: null, rules: 'x', state: 1 }),
  JSON.stringify({ reason: 'é😀\u0000\u202e', metadata: { deep: [[[[[[[[[[]]]]]]]]]] } }),
  JSON.stringify({ unknownField: true }),
  `{"a":"${'x'.repeat(70_000)}"}`
]

describe('no 500 anywhere', () => {
  it('answers bad input on every route with a 4xx in the contract shape, whatever the credentials', async () => {
    expect(routes.length).toBeGreaterThan(40)
    const session = await emu.control('POST', `/developers/${credential.developer.id}/session`, {})
    const authVariants: Record<string, string>[] = [
      {},
      { authorization: `Bearer ${session.body.token}` },
      { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
      {
        'x-svc-app-id': credential.appId,
        'x-svc-plugin-key': credential.pluginKey,
        'x-svc-plugin-secret': credential.pluginSecret
      },
      { 'x-emulator-token': emu.adminToken }
    ]
    let checked = 0
    for (const route of routes) {
      // An endless event stream: covered by its own tests.
      if (route.path.endsWith('/stream') || route.path === '/_emulator/events') continue
      for (const headers of authVariants) {
        for (const body of route.method === 'GET' || route.method === 'DELETE' ? [undefined] : BODIES) {
          const response = await emu.request(route.method, `${route.path}?limit=-1&token=%E0%A4`, {
            headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            rawBody: body
          })
          checked += 1
          const where = `${route.method} ${route.path} ${JSON.stringify(Object.keys(headers))} body=${(body ?? '').slice(0, 40)}`
          expect(response.status, where).toBeLessThan(500)
          if (response.status >= 400)
            expect(response.body, where).toMatchObject({ ok: false, error: expect.stringMatching(/^[A-Z_]+$/) })
        }
      }
    }
    expect(checked).toBeGreaterThan(500)
    expect((await emu.request('GET', '/_emulator/health')).status).toBe(200)
    // Thousands of requests one after another: 18 s on CI, past the API suite's 30 s on a busy machine.
  }, 180_000)
})
