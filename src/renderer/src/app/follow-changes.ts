import type { ChangeBatch } from '../../../shared/contract/changes'
import { refreshNow } from '../components/useNow'
import { useConnection } from '../stores/connection'
import { useSettings } from '../stores/settings'
import { startOver } from '../stores/start-over'
import { useUpstream } from '../stores/upstream'

/**
 * Row changes reload the screens at most this often: a plugin validating in a loop changes a
 * credential's lastUsedAt on every call, and the screens need not reload for each (the feed is
 * still shown well within a second).
 */
export const RELOAD_EVERY_MS = 250
let reloadTimer: ReturnType<typeof setTimeout> | null = null

function reloadSoon(): void {
  if (reloadTimer) return
  reloadTimer = setTimeout(() => {
    reloadTimer = null
    refreshNow()
    useConnection.getState().dataChanged()
  }, RELOAD_EVERY_MS)
}

/**
 * Applies one batch of the server's change feed (GET /_emulator/events): whoever changed the
 * state (a script, the CLI, a plugin, this UI), every screen shows it without a reload.
 * Screens reload on `dataVersion`; the clock, the fault rules and the settings are read again.
 */
export function followChanges(batch: ChangeBatch): void {
  const kinds = new Set(batch.changes.map((change) => change.kind))
  // New data carries times of about now: take a fresh now so none reads as ahead of the clock.
  refreshNow()
  if (kinds.has('everything')) {
    startOver()
    void useSettings.getState().loadClock()
    void useSettings.getState().loadFaults()
    void useSettings.getState().loadSettings()
    return
  }
  const settings = useSettings.getState()
  if (kinds.has('clock')) void settings.loadClock()
  if (kinds.has('faults')) void settings.loadFaults()
  if (kinds.has('settings')) void settings.loadSettings()
  if (kinds.has('upstream')) void useUpstream.getState().loadUpstream()
  // Moved time changes what licenses, trials and subscriptions say; settings change the header names shown.
  if (kinds.has('entity') || kinds.has('clock') || kinds.has('settings')) reloadSoon()
}

/** A `change` event's data, or null when it is not one (skipped rather than stopping the feed). */
export function parseChangeBatch(data: string): ChangeBatch | null {
  try {
    const parsed = JSON.parse(data) as ChangeBatch
    return Array.isArray(parsed.changes) ? parsed : null
  } catch {
    return null
  }
}
