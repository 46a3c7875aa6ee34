import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

import { createMainWindow } from '../../src/main/window'
import {
  DEFAULT_WINDOW_SIZE,
  initialWindowBounds,
  isOnSomeDisplay,
  MIN_WINDOW_SIZE,
  readWindowState,
  trackWindowState,
  writeWindowState
} from '../../src/main/window-state'
import { fake, FakeBrowserWindow, resetFakeElectron } from '../support/fake-electron'
import { makeTempDir } from '../support/temp-dir'

vi.mock('electron', () => import('../support/fake-electron'))

const oneScreen = [{ x: 0, y: 0, width: 1920, height: 1040 }]
const twoScreens = [...oneScreen, { x: 1920, y: 0, width: 2560, height: 1400 }]

describe('window state', () => {
  let temp: ReturnType<typeof makeTempDir>
  let path: string
  beforeEach(() => {
    resetFakeElectron()
    temp = makeTempDir('window-state')
    path = join(temp.path, 'window-state.json')
  })
  afterEach(() => {
    vi.useRealTimers()
    temp.remove()
  })

  it('round-trips through a small JSON file, written atomically', () => {
    const state = { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true }
    writeWindowState(path, state)
    writeWindowState(path, state)
    expect(readWindowState(path)).toEqual(state)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(state)
    expect(readdirSync(temp.path)).toEqual(['window-state.json']) // no temporary file left behind
  })

  it('ignores a missing, damaged or strange file', () => {
    expect(readWindowState(path)).toBeNull()
    for (const text of [
      '',
      '{',
      'null',
      '[]',
      '{"bounds":{"x":1,"y":2,"width":-5,"height":4},"maximized":false}',
      '{"bounds":{"x":"1","y":2,"width":5,"height":4},"maximized":false}',
      '{"bounds":{"x":1,"y":2,"width":5,"height":4}}'
    ]) {
      writeFileSync(path, text)
      expect(readWindowState(path), text).toBeNull()
    }
  })

  it('counts a window as visible only when its title bar is on a display', () => {
    expect(isOnSomeDisplay({ x: 100, y: 100, width: 800, height: 600 }, oneScreen)).toBe(true)
    expect(isOnSomeDisplay({ x: 2500, y: 100, width: 800, height: 600 }, oneScreen)).toBe(false) // on an unplugged monitor
    expect(isOnSomeDisplay({ x: 2500, y: 100, width: 800, height: 600 }, twoScreens)).toBe(true)
    expect(isOnSomeDisplay({ x: 1870, y: 100, width: 800, height: 600 }, oneScreen)).toBe(false) // 50 px of title bar: too little to grab
    expect(isOnSomeDisplay({ x: 100, y: -590, width: 800, height: 600 }, oneScreen)).toBe(false) // title bar above the screen
  })

  it('restores a visible place, keeps only the size of an invisible one, and defaults without one', () => {
    expect(initialWindowBounds(null, oneScreen)).toEqual({ bounds: DEFAULT_WINDOW_SIZE, maximized: false })
    const visible = { bounds: { x: 50, y: 60, width: 1100, height: 750 }, maximized: false }
    expect(initialWindowBounds(visible, oneScreen)).toEqual({ bounds: visible.bounds, maximized: false })
    const offScreen = { bounds: { x: 3000, y: 60, width: 1100, height: 750 }, maximized: true }
    expect(initialWindowBounds(offScreen, oneScreen)).toEqual({ bounds: { width: 1100, height: 750 }, maximized: true })
    const tiny = { bounds: { x: 0, y: 0, width: 10, height: 10 }, maximized: false }
    expect(initialWindowBounds(tiny, oneScreen).bounds).toMatchObject(MIN_WINDOW_SIZE)
  })

  it('saves after moves and resizes settle, and at once on close', () => {
    vi.useFakeTimers()
    const window = new FakeBrowserWindow({ x: 0, y: 0, width: 900, height: 600 })
    trackWindowState(window, path, { delayMs: 200 })
    window.setBounds({ x: 40, y: 30 })
    window.setBounds({ width: 1000 })
    expect(existsSync(path)).toBe(false) // debounced
    vi.advanceTimersByTime(250)
    expect(readWindowState(path)).toEqual({ bounds: { x: 40, y: 30, width: 1000, height: 600 }, maximized: false })
    window.setBounds({ x: 80 })
    window.close()
    expect(readWindowState(path)?.bounds.x).toBe(80)
  })

  /** The app's main window over the fake Electron, with its state file at `path` and one screen. */
  const openWindow = () =>
    createMainWindow({
      preloadPath: '/p.cjs',
      url: 'http://127.0.0.1:4747',
      windowStatePath: path,
      workAreas: oneScreen,
      onError: () => undefined
    }) as unknown as FakeBrowserWindow

  it('a new window opens where the last one was', () => {
    writeWindowState(path, { bounds: { x: 120, y: 80, width: 1024, height: 700 }, maximized: true })
    const window = openWindow()
    expect(window.options).toMatchObject({ x: 120, y: 80, width: 1024, height: 700 })
    expect(window.maximized).toBe(true)
    expect(fake.windows).toHaveLength(1)
  })

  it('a window last seen on a monitor that is gone opens on a visible one', () => {
    writeWindowState(path, { bounds: { x: 2500, y: 80, width: 1024, height: 700 }, maximized: false })
    const window = openWindow()
    expect(window.options.x).toBeUndefined()
    expect(window.options).toMatchObject({ width: 1024, height: 700 })
  })
})
