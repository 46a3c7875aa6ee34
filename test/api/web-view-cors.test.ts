import { beforeAll, describe, expect, it } from 'vitest'

import { libraryTokenOf } from '../support/commerce'
import { useEmulator } from '../support/emulator'
import { buildTokenWorld, downloadTokenFrom } from '../support/token-world'
import type { TokenWorld } from '../support/token-world'

// docs/api.md, "Tokens and scopes": the routes a web view calls answer CORS for any origin
// (Bearer tokens, never cookies); the management API and the control plane grant no foreign origin.

const ORIGIN = 'https://vendor.example'

describe('CORS', () => {
  let world: TokenWorld
  let libraryToken: string

  const emu = useEmulator()
  beforeAll(async () => {
    world = await buildTokenWorld(emu)
    libraryToken = await libraryTokenOf(emu, world.buyer.id)
  })

  const preflight = (path: string, method = 'GET') =>
    fetch(emu.baseUrl + path, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': method,
        'access-control-request-headers': 'authorization'
      }
    })

  it('answers preflights on the web view routes', async () => {
    const paths = [
      '/api/library',
      '/api/license/v1/webview-library',
      '/api/license/v1/library-token',
      `/api/downloads/${world.vendorX.fileId}`
    ]
    for (const path of paths) {
      const response = await preflight(path, path.includes('license') ? 'POST' : 'GET')
      expect(response.status, path).toBe(204)
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*')
      expect(response.headers.get('access-control-allow-methods'), path).toContain('GET')
      expect(response.headers.get('access-control-allow-headers')?.toLowerCase(), path).toContain('authorization')
      expect(response.headers.get('access-control-allow-credentials'), path).toBeNull()
    }
  })

  it('every answer of a web view route, errors included, carries Allow-Origin * and exposes the download headers', async () => {
    const library = await fetch(`${emu.baseUrl}/api/library`, {
      headers: { origin: ORIGIN, authorization: `Bearer ${libraryToken}` }
    })
    expect(library.status).toBe(200)
    expect(library.headers.get('access-control-allow-origin')).toBe('*')
    const refused = await fetch(`${emu.baseUrl}/api/library`, { headers: { origin: ORIGIN } })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
    const downloadToken = await downloadTokenFrom(emu, libraryToken)
    const ranged = await fetch(`${emu.baseUrl}/api/downloads/${world.vendorX.fileId}?download_token=${downloadToken}`, {
      headers: { origin: ORIGIN, range: 'bytes=0-3' }
    })
    expect(ranged.status).toBe(206)
    expect(ranged.headers.get('access-control-allow-origin')).toBe('*')
    const exposed = (ranged.headers.get('access-control-expose-headers') ?? '').toLowerCase()
    for (const name of ['content-range', 'content-disposition', 'retry-after']) expect(exposed).toContain(name)
  })

  it('an injected rate limit on the library still reaches the page, with Retry-After exposed', async () => {
    await emu.control('PUT', '/faults', { rules: [{ route: '/api/library', kind: 'rate_limit', retryAfterS: 7 }] })
    try {
      const limited = await fetch(`${emu.baseUrl}/api/library`, {
        headers: { origin: ORIGIN, authorization: `Bearer ${libraryToken}` }
      })
      expect(limited.status).toBe(429)
      expect(limited.headers.get('access-control-allow-origin')).toBe('*')
      expect(limited.headers.get('retry-after')).toBe('7')
    } finally {
      await emu.control('PUT', '/faults', { rules: [] })
    }
  })

  it('the management API and the control plane grant no foreign origin', async () => {
    const management = await preflight('/api/developer/plugin-keys/products')
    expect(management.headers.get('access-control-allow-origin')).toBeNull()
    // No preflight route there: OPTIONS is a method that path does not take (405 with Allow, issue 27).
    expect(management.status).toBe(405)
    expect(management.headers.get('allow')).toBe('GET, HEAD')
    const listed = await fetch(`${emu.baseUrl}/api/developer/plugin-keys/products`, {
      headers: { origin: ORIGIN, authorization: `Bearer ${world.vendorX.developer.token}` }
    })
    expect(listed.headers.get('access-control-allow-origin')).toBeNull()
    const control = await fetch(`${emu.baseUrl}/_emulator/developers`, {
      headers: { origin: ORIGIN, 'x-emulator-token': emu.adminToken }
    })
    expect(control.status).toBe(403)
    expect(control.headers.get('access-control-allow-origin')).toBeNull()
    const claim = await preflight('/api/library/claim', 'POST')
    expect(claim.headers.get('access-control-allow-origin')).toBeNull()
  })
})
