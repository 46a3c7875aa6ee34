import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { createBridgeHandlers, isAllowedSender, registerIpcHandlers, safeFileName } from '../../src/main/ipc'
import type { BridgeDeps } from '../../src/main/ipc'
import { IPC_CHANNELS } from '../../src/preload/channels'
import { fake, resetFakeElectron } from '../support/fake-electron'
import { makeTempDir } from '../support/temp-dir'

vi.mock('electron', () => import('../support/fake-electron'))

const ORIGIN = 'http://127.0.0.1:4747'

describe('the IPC sender check', () => {
  it('accepts frames on the server origin, whatever the path', () => {
    for (const url of [`${ORIGIN}/`, `${ORIGIN}/#/credentials`, `${ORIGIN}/index.html?x=1`]) {
      expect(isAllowedSender({ senderFrame: { url } }, [ORIGIN])).toBe(true)
    }
  })

  it('refuses other origins, opaque origins and destroyed frames', () => {
    const refused = [
      'http://127.0.0.1:4748/', // another port: another server
      'http://localhost:4747/', // same server, another origin (the CSP and the guard tell them apart too)
      'https://127.0.0.1:4747/',
      'http://127.0.0.1.evil.example:4747/',
      'file:///home/user/index.html',
      'about:blank',
      'data:text/html,<script>1</script>',
      'devtools://devtools/bundled/index.html',
      'not a url'
    ]
    for (const url of refused) expect(isAllowedSender({ senderFrame: { url } }, [ORIGIN]), url).toBe(false)
    expect(isAllowedSender({ senderFrame: null }, [ORIGIN])).toBe(false)
    expect(isAllowedSender({ senderFrame: { url: `${ORIGIN}/` } }, [])).toBe(false)
  })
})

describe('the IPC handlers', () => {
  let temp: ReturnType<typeof makeTempDir>
  let deps: BridgeDeps

  beforeEach(() => {
    resetFakeElectron()
    temp = makeTempDir('ipc')
    deps = {
      connection: () => ({ baseUrl: ORIGIN, adminToken: 'token-123456' }),
      appInfo: () => ({ version: '1.2.3', dataDir: temp.path, runtimeKeyProtection: 'file' }),
      dataDir: temp.path,
      openPath: (path) => fake.shell.openPath(path),
      openInBrowser: (url) => fake.shell.openExternal(url),
      showSaveDialog: (options) => fake.dialog.showSaveDialog(options),
      saveDirectory: () => join(temp.path, 'Downloads')
    }
    registerIpcHandlers(fake.ipcMain, () => [ORIGIN], createBridgeHandlers(deps))
  })
  afterEach(() => temp.remove())

  const invoke = (channel: string, ...args: unknown[]) => fake.ipcMain.invoke(channel, `${ORIGIN}/`, ...args)

  it('registers exactly the bridge channels', () => {
    expect([...fake.ipcMain.handlers.keys()].sort()).toEqual(Object.values(IPC_CHANNELS).sort())
  })

  it('answers connection and appInfo to the UI', async () => {
    expect(await invoke(IPC_CHANNELS.connection)).toEqual({ baseUrl: ORIGIN, adminToken: 'token-123456' })
    expect(await invoke(IPC_CHANNELS.appInfo)).toEqual({
      version: '1.2.3',
      dataDir: temp.path,
      runtimeKeyProtection: 'file'
    })
  })

  it('refuses every channel to another origin before running it', async () => {
    for (const channel of Object.values(IPC_CHANNELS)) {
      await expect(fake.ipcMain.invoke(channel, 'http://127.0.0.1:9999/', 'https://example.com/', 'x')).rejects.toThrow(
        `${channel} refused`
      )
    }
    expect(fake.shell.openedExternal).toEqual([])
    expect(fake.shell.openedPaths).toEqual([])
    expect(fake.dialog.saveDialogs).toEqual([])
  })

  it('openDataFolder opens the data directory and reports a failure', async () => {
    await invoke(IPC_CHANNELS.openDataFolder)
    expect(fake.shell.openedPaths).toEqual([temp.path])
    fake.shell.openPathResult = 'Failed to open path'
    await expect(invoke(IPC_CHANNELS.openDataFolder)).rejects.toThrow('Failed to open path')
  })

  it('openExternal opens http(s) URLs only', async () => {
    await invoke(IPC_CHANNELS.openExternal, 'https://docs.example.com/plugin-keys?x=1#y')
    await invoke(IPC_CHANNELS.openExternal, 'http://127.0.0.1:4747/docs')
    expect(fake.shell.openedExternal).toEqual([
      'https://docs.example.com/plugin-keys?x=1#y',
      'http://127.0.0.1:4747/docs'
    ])
    const refused = [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://server/share',
      'ms-msdt:/id',
      'https://user:pass@example.com/',
      'not a url',
      42,
      null,
      'x'.repeat(5000)
    ]
    for (const url of refused)
      await expect(invoke(IPC_CHANNELS.openExternal, url)).rejects.toThrow('Only http and https')
    expect(fake.shell.openedExternal).toHaveLength(2)
  })

  it('saveTextFile writes where the user chose, and answers false when cancelled', async () => {
    const target = join(temp.path, 'chosen.json')
    fake.dialog.saveDialogResult = { canceled: false, filePath: target }
    expect(await invoke(IPC_CHANNELS.saveTextFile, 'state.json', '{"a":"é"}')).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe('{"a":"é"}')
    expect(fake.dialog.saveDialogs[0]).toMatchObject({ defaultPath: join(temp.path, 'Downloads', 'state.json') })

    fake.dialog.saveDialogResult = { canceled: true }
    expect(await invoke(IPC_CHANNELS.saveTextFile, 'state.json', 'x')).toBe(false)
  })

  it('saveTextFile takes only a suggested name, never a path, and text only', async () => {
    fake.dialog.saveDialogResult = { canceled: true }
    await invoke(IPC_CHANNELS.saveTextFile, '../../.bashrc', 'x')
    expect(fake.dialog.saveDialogs[0]).toMatchObject({ defaultPath: join(temp.path, 'Downloads', 'bashrc') })
    await expect(invoke(IPC_CHANNELS.saveTextFile, 'a.txt', { not: 'text' })).rejects.toThrow('as a string')
  })

  it('cleans suggested file names', () => {
    expect(safeFileName('export.json')).toBe('export.json')
    expect(safeFileName('/etc/passwd')).toBe('passwd')
    expect(safeFileName('C:\\Windows\\evil.bat')).toBe('evil.bat')
    expect(safeFileName('a<b>c:d"e|f?g*h.txt')).toBe('a_b_c_d_e_f_g_h.txt')
    expect(safeFileName('line\nbreak.txt')).toBe('line_break.txt')
    expect(safeFileName('..')).toBe('export.txt')
    expect(safeFileName(undefined)).toBe('export.txt')
    expect(safeFileName('x'.repeat(500))).toHaveLength(200)
  })
})
