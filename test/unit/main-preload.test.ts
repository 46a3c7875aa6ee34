import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'

import type { DesktopBridge } from '../../src/preload/bridge'
import { IPC_CHANNELS } from '../../src/preload/channels'
import { fake, resetFakeElectron } from '../support/fake-electron'

vi.mock('electron', () => import('../support/fake-electron'))

describe('the preload bridge', () => {
  // The preload runs once per renderer, as here: import it once and keep what it exposed.
  let exposedKeys: string[] = []
  let bridge: DesktopBridge
  beforeAll(async () => {
    resetFakeElectron()
    await import('../../src/preload/index')
    exposedKeys = [...fake.contextBridge.exposed.keys()]
    const exposed = fake.contextBridge.exposed.get('emulatorDesktop') as DesktopBridge | undefined
    if (!exposed) throw new Error('nothing exposed')
    bridge = exposed
  })
  beforeEach(() => resetFakeElectron())

  it('exposes one object with exactly the five typed functions, and nothing else', async () => {
    expect(exposedKeys).toEqual(['emulatorDesktop'])
    // Exactly these: no raw ipcRenderer (send, on, invoke on any channel) among them.
    expect(Object.keys(bridge).sort()).toEqual([
      'appInfo',
      'connection',
      'openDataFolder',
      'openExternal',
      'saveTextFile'
    ])
    for (const value of Object.values(bridge)) expect(typeof value).toBe('function')
  })

  it('each function invokes its own channel with its own arguments only', async () => {
    await bridge.connection()
    await bridge.appInfo()
    await bridge.openDataFolder()
    await bridge.openExternal('https://example.com/')
    await bridge.saveTextFile('a.json', '{}')
    expect(fake.ipcRenderer.invocations).toEqual([
      { channel: IPC_CHANNELS.connection, args: [] },
      { channel: IPC_CHANNELS.appInfo, args: [] },
      { channel: IPC_CHANNELS.openDataFolder, args: [] },
      { channel: IPC_CHANNELS.openExternal, args: ['https://example.com/'] },
      { channel: IPC_CHANNELS.saveTextFile, args: ['a.json', '{}'] }
    ])
  })
})
