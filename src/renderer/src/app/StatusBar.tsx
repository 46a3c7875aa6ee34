import { useEffect } from 'react'

import { formatOffsetShort } from '../format/date'
import { buildHash } from '../navigation/routes'
import { useConnection } from '../stores/connection'
import { useSettings } from '../stores/settings'
import { useForwardingLabel, useUpstream } from '../stores/upstream'

export interface EmulatorConditions {
  /** "Clock +30 d", or null on system time. */
  clock: string | null
  /** "2 fault rules active", or null with none. */
  faults: string | null
  /** "Forwarding /api/** to api.example.com", or null when forwarding is off (docs/upstream.md). */
  forwarding: string | null
}

/** What makes the emulator answer differently from production right now. */
export function useConditions(): EmulatorConditions {
  const offsetMs = useConnection((state) => state.clockOffsetMs)
  const ruleCount = useSettings((state) => state.faults.data?.length ?? 0)
  const shift = formatOffsetShort(offsetMs / 1000)
  const forwarding = useForwardingLabel()
  return {
    forwarding,
    clock: Math.abs(offsetMs) < 60_000 ? null : `Clock ${shift}`,
    faults: ruleCount === 0 ? null : `${ruleCount} fault rule${ruleCount === 1 ? '' : 's'} active`
  }
}

/**
 * The persistent bar under every screen: is the clock moved, are faults injected, with links to
 * change them. Kept fresh when data changes and when the window gets focus back (another tool
 * may have changed them through the control plane meanwhile).
 */
export function StatusBar() {
  const dataVersion = useConnection((state) => state.dataVersion)
  const loadFaults = useSettings((state) => state.loadFaults)
  const loadClock = useSettings((state) => state.loadClock)
  const loadUpstream = useUpstream((state) => state.loadUpstream)
  const conditions = useConditions()

  useEffect(() => {
    void loadFaults()
  }, [loadFaults, dataVersion])

  useEffect(() => {
    void loadUpstream()
  }, [loadUpstream, dataVersion])

  useEffect(() => {
    const refresh = () => {
      void loadFaults()
      void loadClock()
    }
    window.addEventListener('focus', refresh)
    return () => window.removeEventListener('focus', refresh)
  }, [loadFaults, loadClock])

  return (
    <footer className="status-bar" aria-label="Emulator conditions" data-testid="status-bar">
      <p className={`status-bar__item${conditions.clock ? ' status-bar__item--on' : ''}`} data-testid="status-clock">
        <span className="status-bar__text">{conditions.clock ?? 'Clock: system time'}</span>
        <a href={buildHash('scenarios')}>{conditions.clock ? 'Change or reset' : 'Move it'}</a>
        <a href={buildHash('library')}>Library clock</a>
      </p>
      <p className={`status-bar__item${conditions.faults ? ' status-bar__item--on' : ''}`} data-testid="status-faults">
        <span className="status-bar__text">{conditions.faults ?? 'No fault rules'}</span>
        <a href={buildHash('scenarios')}>{conditions.faults ? 'Edit faults' : 'Add one'}</a>
      </p>
      {conditions.forwarding && (
        <p className="status-bar__item status-bar__item--on" data-testid="status-upstream">
          <span className="status-bar__text">{conditions.forwarding}</span>
          <a href={buildHash('scenarios')}>Change</a>
        </p>
      )}
    </footer>
  )
}
