import { describe, expect, it } from 'vitest'

import { useEmulator } from '../support/emulator'

// `npm run dev` serves the renderer from Vite on another origin; only that origin gets CORS.
const emu = useEmulator({ trustedOrigins: ['http://localhost:5173'] })

describe('trusted origins', () => {
  it('answers a preflight from a trusted origin and lets it drive the control plane', async () => {
    const preflight = await emu.request('OPTIONS', '/_emulator/developers', {
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-emulator-token'
      }
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, x-emulator-token')
    const created = await emu.control(
      'POST',
      '/developers',
      { email: 'dev-server@example.test' },
      { origin: 'http://localhost:5173' }
    )
    expect(created.status).toBe(201)
    expect(created.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
  })

  it('gives any other origin no CORS headers and no control plane', async () => {
    const preflight = await emu.request('OPTIONS', '/_emulator/developers', {
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' }
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
    const refused = await emu.control(
      'POST',
      '/developers',
      { email: 'evil@example.test' },
      { origin: 'http://evil.example' }
    )
    expect(refused.status).toBe(403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
  })
})
