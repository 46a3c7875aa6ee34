import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { parseExternalUrl } from '../../src/main/external-url'
import { denyPermissions } from '../../src/main/permissions'
import { createMainWindow, restrictNavigation } from '../../src/main/window'
import { fake, FakeBrowserWindow, FakeWebContents, resetFakeElectron } from '../support/fake-electron'
import { makeTempDir } from '../support/temp-dir'

vi.mock('electron', () => import('../support/fake-electron'))

const ORIGIN = 'http://127.0.0.1:4747'
// The fakes stand in for Electron's types (WebContents, Session): `as never` hands them over.

describe('window hardening', () => {
  let temp: ReturnType<typeof makeTempDir>
  beforeEach(() => {
    resetFakeElectron()
    temp = makeTempDir('window')
  })
  afterEach(() => temp.remove())

  it('the window is isolated, sandboxed, without Node, with web security', () => {
    const window = createMainWindow({
      preloadPath: '/app/out/preload/index.cjs',
      url: ORIGIN,
      windowStatePath: join(temp.path, 'w.json'),
      workAreas: [],
      onError: () => undefined
    }) as unknown as FakeBrowserWindow
    expect(window.options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      disableBlinkFeatures: 'Auxclick'
    })
    expect(window.options.show).toBe(false) // shown on ready-to-show
    expect(window.loadedUrls).toEqual([ORIGIN])
  })

  it('shows the window even when the page does not load, and reports why', async () => {
    const errors: unknown[] = []
    FakeBrowserWindow.nextLoadError = new Error('ERR_CONNECTION_REFUSED')
    const window = createMainWindow({
      preloadPath: '/p.cjs',
      url: ORIGIN,
      windowStatePath: join(temp.path, 'w.json'),
      workAreas: [],
      onError: (error) => errors.push(error)
    }) as unknown as FakeBrowserWindow
    await vi.waitFor(() => expect(errors).toEqual([new Error('ERR_CONNECTION_REFUSED')]))
    expect(window.visible).toBe(true)
  })

  it('denies navigation; http(s) targets open in the OS browser instead', async () => {
    const contents = new FakeWebContents()
    restrictNavigation(
      contents as never,
      (url) => fake.shell.openExternal(url),
      () => undefined
    )
    expect(contents.navigate('https://example.com/docs')).toBe(false)
    expect(contents.navigate(`${ORIGIN}/elsewhere`)).toBe(false)
    expect(contents.navigate('file:///etc/passwd')).toBe(false)
    expect(contents.navigate('javascript:alert(1)')).toBe(false)
    expect(contents.navigate('https://frame.example/', false)).toBe(false) // a subframe
    expect(fake.shell.openedExternal).toEqual(['https://example.com/docs', `${ORIGIN}/elsewhere`])
  })

  it('denies new windows; http(s) targets open in the OS browser instead', () => {
    const contents = new FakeWebContents()
    restrictNavigation(
      contents as never,
      (url) => fake.shell.openExternal(url),
      () => undefined
    )
    expect(contents.openWindow('https://example.com/')).toEqual({ action: 'deny' })
    expect(contents.openWindow('file:///C:/Windows/System32/calc.exe')).toEqual({ action: 'deny' })
    expect(contents.openWindow('ms-settings:privacy')).toEqual({ action: 'deny' })
    expect(fake.shell.openedExternal).toEqual(['https://example.com/'])
  })

  it('refuses webviews', () => {
    const contents = new FakeWebContents()
    restrictNavigation(
      contents as never,
      async () => undefined,
      () => undefined
    )
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true
      }
    }
    contents.emit('will-attach-webview', event, {}, {})
    expect(event.defaultPrevented).toBe(true)
  })
})

describe('permissions', () => {
  beforeEach(() => resetFakeElectron())

  it('denies every permission request and check', async () => {
    denyPermissions(fake.session as never, () => [ORIGIN])
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'midiSysex',
      'openExternal',
      'fullscreen',
      'clipboard-read',
      'hid',
      'serial',
      'usb'
    ]) {
      expect(await fake.session.request(permission, `${ORIGIN}/`), permission).toBe(false)
      expect(fake.session.check(permission, ORIGIN), permission).toBe(false)
    }
    expect(fake.session.deviceHandler?.({})).toBe(false)
  })

  it("allows clipboard writes to the UI's own origin only", async () => {
    denyPermissions(fake.session as never, () => [ORIGIN])
    expect(await fake.session.request('clipboard-sanitized-write', `${ORIGIN}/`)).toBe(true)
    expect(fake.session.check('clipboard-sanitized-write', ORIGIN)).toBe(true)
    expect(await fake.session.request('clipboard-sanitized-write', 'https://example.com/')).toBe(false)
    expect(fake.session.check('clipboard-sanitized-write', 'http://127.0.0.1:4748')).toBe(false)
  })

  it('before the server listens, nothing is allowed', async () => {
    denyPermissions(fake.session as never, () => [])
    expect(await fake.session.request('clipboard-sanitized-write', `${ORIGIN}/`)).toBe(false)
  })
})

describe('parseExternalUrl', () => {
  it('passes http and https, normalised', () => {
    expect(parseExternalUrl('https://Example.com/a b')).toBe('https://example.com/a%20b')
    expect(parseExternalUrl('http://127.0.0.1:4747/docs')).toBe('http://127.0.0.1:4747/docs')
  })
  it('refuses everything else', () => {
    for (const value of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'smb://host/share',
      '//example.com',
      'https://u:p@example.com',
      'https://',
      '',
      7,
      undefined
    ]) {
      expect(parseExternalUrl(value), String(value)).toBeNull()
    }
  })
})
