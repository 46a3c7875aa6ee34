import { beforeEach, describe, expect, it } from 'vitest'

import {
  FAILURES_BEFORE_DISCONNECTED,
  observedFetch,
  serverDownReason,
  useServerLink
} from '../../../src/renderer/src/stores/server-link'

const initial = useServerLink.getState()

describe('the one connection state', () => {
  beforeEach(() => useServerLink.setState(initial, true))

  it('goes connected → reconnecting → disconnected since the first failure, and back', () => {
    const link = useServerLink.getState
    link().lost('stream closed', 1_000)
    expect(link()).toMatchObject({ state: 'reconnecting', since: 1_000 })
    for (let i = 0; i < FAILURES_BEFORE_DISCONNECTED; i++) link().checkFailed('refused')
    expect(link()).toMatchObject({ state: 'disconnected', since: 1_000, lastError: 'refused' })
    // A later failure does not move "since".
    link().lost('again', 9_000)
    expect(link().since).toBe(1_000)
    expect(serverDownReason(link().state)).toContain('not answering')
    link().answered()
    expect(link()).toMatchObject({ state: 'connected', since: null, recoveries: 1 })
    expect(serverDownReason(link().state)).toBeNull()
    link().answered()
    expect(link().recoveries).toBe(1)
  })

  it('counts any HTTP answer as the server being there and a refused fetch as it being gone', async () => {
    const answering = observedFetch(async () => new Response('{"ok":false}', { status: 500 }))
    const refusing = observedFetch(async () => {
      throw new TypeError('Failed to fetch')
    })
    // A service API call dropped by an "offline" fault rule is not the server going away.
    await expect(refusing('http://127.0.0.1:1/api/license/v1/activate')).rejects.toThrow('Failed to fetch')
    expect(useServerLink.getState().state).toBe('connected')
    await expect(refusing('http://127.0.0.1:1/_emulator/info')).rejects.toThrow('Failed to fetch')
    expect(useServerLink.getState()).toMatchObject({ state: 'reconnecting', lastError: 'Failed to fetch' })
    expect((await answering('http://127.0.0.1:1/api/library')).status).toBe(500)
    expect(useServerLink.getState().state).toBe('connected')
  })

  it('does not call an aborted call a lost server', async () => {
    const controller = new AbortController()
    controller.abort()
    const aborted = observedFetch(async () => {
      throw new DOMException('aborted', 'AbortError')
    })
    await expect(aborted('http://127.0.0.1:1/_emulator/info', { signal: controller.signal })).rejects.toThrow()
    expect(useServerLink.getState().state).toBe('connected')
  })
})
