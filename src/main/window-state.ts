import { readFileSync } from 'node:fs'

import { writeFileAtomic } from '../core/files/atomic-file'

export interface Rectangle {
  x: number
  y: number
  width: number
  height: number
}

/** What is remembered between runs: the normal (not maximized) bounds and whether it was maximized. */
export interface WindowState {
  bounds: Rectangle
  maximized: boolean
}

export const WINDOW_STATE_FILE = 'window-state.json'
export const DEFAULT_WINDOW_SIZE = { width: 1280, height: 800 } as const
export const MIN_WINDOW_SIZE = { width: 800, height: 560 } as const
const MAX_DIMENSION = 20_000
/** How much of the title bar must be on a display for the user to grab and move the window. */
const VISIBLE_TITLE_WIDTH = 100
const TITLE_BAR_HEIGHT = 32

/** The saved state, or null when there is none or it is unusable (hand-edited, truncated, old). */
export function readWindowState(path: string): WindowState | null {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
  if (!value || typeof value !== 'object') return null
  const { bounds, maximized } = value as { bounds?: unknown; maximized?: unknown }
  if (!isRectangle(bounds) || typeof maximized !== 'boolean') return null
  return { bounds: { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height }, maximized }
}

export function writeWindowState(path: string, state: WindowState): void {
  writeFileAtomic(path, JSON.stringify(state, null, 2) + '\n', 0o644)
}

/**
 * Whether a window at `bounds` could be seen and moved: part of its title bar lies on one of the
 * displays' work areas. A monitor unplugged since the last run must not leave the window off-screen.
 */
export function isOnSomeDisplay(bounds: Rectangle, workAreas: readonly Rectangle[]): boolean {
  const titleBar = { x: bounds.x, y: bounds.y, width: bounds.width, height: Math.min(TITLE_BAR_HEIGHT, bounds.height) }
  return workAreas.some((area) => {
    const overlap = intersect(titleBar, area)
    return overlap !== null && overlap.width >= Math.min(VISIBLE_TITLE_WIDTH, bounds.width) && overlap.height > 0
  })
}

/** Options for the new window: the saved place when it is visible, else the default size, centred by the OS. */
export function initialWindowBounds(
  saved: WindowState | null,
  workAreas: readonly Rectangle[]
): { bounds: Partial<Rectangle> & { width: number; height: number }; maximized: boolean } {
  if (!saved) return { bounds: { ...DEFAULT_WINDOW_SIZE }, maximized: false }
  const width = clamp(saved.bounds.width, MIN_WINDOW_SIZE.width, MAX_DIMENSION)
  const height = clamp(saved.bounds.height, MIN_WINDOW_SIZE.height, MAX_DIMENSION)
  const bounds = { x: saved.bounds.x, y: saved.bounds.y, width, height }
  // Off-screen: keep the size (and maximized), drop the position.
  if (!isOnSomeDisplay(bounds, workAreas)) return { bounds: { width, height }, maximized: saved.maximized }
  return { bounds, maximized: saved.maximized }
}

/** The window events and reads that tracking needs (a BrowserWindow has them). */
export interface TrackedWindow {
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close', listener: () => void): unknown
  isDestroyed(): boolean
  isMaximized(): boolean
  getNormalBounds(): Rectangle
}

/**
 * Saves the window's state a moment after it stops moving or resizing, and at once when it
 * closes. Returns a function that writes any pending change now.
 */
export function trackWindowState(
  window: TrackedWindow,
  path: string,
  options: { delayMs?: number; onError?: (error: unknown) => void } = {}
): () => void {
  const delayMs = options.delayMs ?? 500
  let timer: NodeJS.Timeout | null = null
  const save = (): void => {
    if (timer) clearTimeout(timer)
    timer = null
    if (window.isDestroyed()) return
    try {
      writeWindowState(path, { bounds: window.getNormalBounds(), maximized: window.isMaximized() })
    } catch (error) {
      // Losing the window position is not worth interrupting anyone for.
      options.onError?.(error)
    }
  }
  const later = (): void => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(save, delayMs)
  }
  window.on('resize', later)
  window.on('move', later)
  window.on('maximize', save)
  window.on('unmaximize', save)
  window.on('close', save)
  return save
}

function isRectangle(value: unknown): value is Rectangle {
  if (!value || typeof value !== 'object') return false
  const { x, y, width, height } = value as Record<string, unknown>
  return (
    [x, y, width, height].every((n) => typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= 1_000_000) &&
    (width as number) > 0 &&
    (height as number) > 0
  )
}

function intersect(a: Rectangle, b: Rectangle): Rectangle | null {
  const x = Math.max(a.x, b.x)
  const y = Math.max(a.y, b.y)
  const right = Math.min(a.x + a.width, b.x + b.width)
  const bottom = Math.min(a.y + a.height, b.y + b.height)
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}
