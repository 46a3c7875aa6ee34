import { create } from 'zustand'

import type {
  ClockMove,
  ClockState,
  FaultRule,
  FaultRuleInput,
  Preset,
  ServerSettings,
  ServerSettingsPatch
} from '../api/types'
import { requireApi, timed, useConnection } from './connection'
import { idle, loadInto, ready } from './resource'
import type { Resource } from './resource'
import { startOver } from './start-over'

export interface SettingsState {
  settings: Resource<ServerSettings>
  clock: Resource<ClockState>
  faults: Resource<FaultRule[]>
  presets: Resource<Preset[]>
  loadSettings(): Promise<void>
  saveSettings(patch: ServerSettingsPatch): Promise<void>
  loadClock(): Promise<void>
  setClock(body: ClockMove): Promise<ClockState>
  loadFaults(): Promise<void>
  saveFaults(rules: FaultRuleInput[]): Promise<FaultRule[]>
  clearFaults(): Promise<void>
  loadPresets(): Promise<void>
  loadPreset(name: string): Promise<Record<string, number>>
  exportState(options?: { includeRequests?: boolean }): Promise<unknown>
  importState(document: unknown): Promise<Record<string, number>>
  reset(): Promise<void>
}

export const useSettings = create<SettingsState>()((set, get) => ({
  settings: idle(),
  clock: idle(),
  faults: idle(),
  presets: idle(),

  async loadSettings() {
    await loadInto({ get, set }, 'settings', () => requireApi().control.settings())
  },

  async saveSettings(patch) {
    const settings = await requireApi().control.updateSettings(patch)
    set({ settings: ready(settings) })
    void useConnection.getState().refreshInfo()
  },

  async loadClock() {
    await loadInto({ get, set }, 'clock', () => useConnection.getState().syncClock())
  },

  async setClock(body) {
    const [clock, timing] = await timed(() => requireApi().control.setClock(body))
    useConnection.getState().applyClock(clock, timing)
    set({ clock: ready(clock) })
    // Licenses, subscriptions and trials may have changed state: let screens reload.
    useConnection.getState().dataChanged()
    return clock
  },

  async loadFaults() {
    await loadInto({ get, set }, 'faults', () => requireApi().control.faults())
  },

  async saveFaults(rules) {
    const saved = await requireApi().control.replaceFaults(rules)
    set({ faults: ready(saved) })
    return saved
  },

  async clearFaults() {
    set({ faults: ready(await requireApi().control.clearFaults()) })
  },

  async loadPresets() {
    await loadInto({ get, set }, 'presets', () => requireApi().control.presets())
  },

  async loadPreset(name) {
    const imported = await requireApi().control.loadPreset(name)
    startOver()
    void get().loadFaults()
    void get().loadClock()
    return imported
  },

  exportState: (options) => requireApi().control.exportState(options),

  async importState(document) {
    const imported = await requireApi().control.importState(document)
    startOver()
    void get().loadFaults()
    void get().loadClock()
    return imported
  },

  async reset() {
    await requireApi().control.reset()
    startOver()
    void get().loadFaults()
    void get().loadClock()
  }
}))
