import { create } from 'zustand'

import { createApi } from '../api'
import type { Api, FetchLike } from '../api'
import { isApiError, toApiError } from '../api/errors'
import type { ApiError } from '../api/errors'
import type { ClockState, ServerInfo } from '../api/types'
import { idle, loadInto, ready } from './resource'
import type { Resource } from './resource'
import { observedFetch } from './server-link'

export type ConnectionPhase = 'connecting' | 'needs-token' | 'ready' | 'failed'

export interface ConnectOptions {
  baseUrl: string
  adminToken: string
  desktop?: boolean
  fetch?: FetchLike
}

export interface ConnectionState {
  phase: ConnectionPhase
  baseUrl: string | null
  /** Running inside the desktop app (window.emulatorDesktop present). */
  desktop: boolean
  api: Api | null
  error: ApiError | null
  info: Resource<ServerInfo>
  /** Emulator clock minus the server's system clock, in ms (what QA set): relative times use the emulator's now. */
  clockOffsetMs: number
  /** The server's system clock minus this browser's, in ms, measured with each clock read: both sides agree on now. */
  skewMs: number
  /** Bumped on every change to the server's state (the change feed): screens reload what they show. */
  dataVersion: number
  /**
   * Bumped when the whole state may be another one (reset, preset, import, a reconnect): views
   * that follow a stream of their own (the request log) start again only then.
   */
  generation: number
  connect(options: ConnectOptions): Promise<boolean>
  needToken(baseUrl: string, error?: ApiError | null): void
  refreshInfo(): Promise<void>
  /** Applies a clock answer; with the times the request was sent and answered, measures the skew too. */
  applyClock(clock: ClockState, timing?: { sentAt: number; receivedAt: number }): void
  /** Reads the server's clock, measuring the skew. */
  syncClock(): Promise<ClockState>
  dataChanged(): void
  /** The whole state was replaced: a new generation, and every screen reloads. */
  stateReplaced(): void
}

export const useConnection = create<ConnectionState>()((set, get) => ({
  phase: 'connecting',
  baseUrl: null,
  desktop: false,
  api: null,
  error: null,
  info: idle(),
  clockOffsetMs: 0,
  skewMs: 0,
  dataVersion: 0,
  generation: 0,

  async connect(options) {
    const api = createApi({
      baseUrl: options.baseUrl,
      adminToken: options.adminToken,
      fetch: observedFetch(options.fetch)
    })
    set({ phase: 'connecting', baseUrl: api.baseUrl, desktop: options.desktop ?? false, error: null })
    try {
      const [info, [clock, timing]] = await Promise.all([api.control.info(), timed(() => api.control.clock())])
      set({ phase: 'ready', api, info: ready(info), error: null })
      get().applyClock(clock, timing)
      return true
    } catch (error) {
      const problem = toApiError(error)
      const tokenProblem = isApiError(error) && (error.code === 'INVALID_TOKEN' || error.code === 'AUTH_REQUIRED')
      set({ phase: tokenProblem ? 'needs-token' : 'failed', api: null, error: problem })
      return false
    }
  },

  needToken(baseUrl, error = null) {
    set({ phase: 'needs-token', baseUrl, error })
  },

  async refreshInfo() {
    const api = get().api
    if (!api) return
    await loadInto({ get, set }, 'info', () => api.control.info())
  },

  applyClock(clock, timing) {
    const offset = Math.round(clock.offsetS * 1000)
    // The server read its clock about halfway between sending and answering.
    const skew = timing
      ? Math.round(Date.parse(clock.systemNow) - (timing.sentAt + timing.receivedAt) / 2)
      : get().skewMs
    if (offset !== get().clockOffsetMs || skew !== get().skewMs)
      set({ clockOffsetMs: offset, skewMs: Number.isFinite(skew) ? skew : 0 })
  },

  async syncClock() {
    const [clock, timing] = await timed(() => requireApi().control.clock())
    get().applyClock(clock, timing)
    return clock
  },

  dataChanged() {
    set({ dataVersion: get().dataVersion + 1 })
    void get().refreshInfo()
  },

  stateReplaced() {
    set({ generation: get().generation + 1 })
    get().dataChanged()
  }
}))

/** The clients of the connected emulator; screens call this only once the app is connected. */
export function requireApi(): Api {
  const api = useConnection.getState().api
  if (!api) throw new Error('Not connected to the emulator yet.')
  return api
}

/** Runs a request, noting when it was sent and when its answer came. */
export async function timed<T>(request: () => Promise<T>): Promise<[T, { sentAt: number; receivedAt: number }]> {
  const sentAt = Date.now()
  const answer = await request()
  return [answer, { sentAt, receivedAt: Date.now() }]
}

/** The server's system now, in ms since the epoch (this browser's clock corrected by the measured skew). */
export function serverNow(): number {
  return Date.now() + useConnection.getState().skewMs
}

/** The emulator's now, in ms since the epoch. */
export function emulatorNow(): number {
  const { skewMs, clockOffsetMs } = useConnection.getState()
  return Date.now() + skewMs + clockOffsetMs
}

/** The credential header prefix in force (`svc` unless changed). */
export function headerPrefix(): string {
  return useConnection.getState().info.data?.settings.headerPrefix ?? 'svc'
}
