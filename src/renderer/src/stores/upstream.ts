import { create } from 'zustand'

import { requireApi } from './connection'
import { idle, loadInto, ready } from './resource'
import type { Resource } from './resource'

/** Where the service API is forwarded (docs/upstream.md); url null: nowhere. */
export interface UpstreamSetting {
  url: string | null
  routes: string[]
}

export interface UpstreamState {
  upstream: Resource<UpstreamSetting>
  loadUpstream(): Promise<void>
  saveUpstream(body: { url: string | null; routes?: string[] | null }): Promise<UpstreamSetting>
}

export const useUpstream = create<UpstreamState>()((set, get) => ({
  upstream: idle(),
  async loadUpstream() {
    await loadInto({ get, set }, 'upstream', () => requireApi().control.upstream())
  },
  async saveUpstream(body) {
    const saved = await requireApi().control.setUpstream(body)
    set({ upstream: ready(saved) })
    return saved
  }
}))

/** "Forwarding /api/** to api.example.com", or null when forwarding is off: the status bar and the window title. */
export function useForwardingLabel(): string | null {
  const setting = useUpstream((state) => state.upstream.data)
  if (!setting || setting.url === null) return null
  let host = setting.url
  try {
    host = new URL(setting.url).host
  } catch {
    // Shown as stored.
  }
  return `Forwarding ${setting.routes.join(', ')} to ${host}`
}
