import { useEffect } from 'react'

import { Card } from '../../components/Card'
import { useConnection } from '../../stores/connection'
import { useSettings } from '../../stores/settings'
import { ClockControls } from '../library/QaActions'
import { ClockSetter } from './ClockSetter'
import { FaultEditor } from './FaultEditor'
import { PresetsCard } from './PresetsCard'
import { ServerSettingsCard } from './ServerSettingsCard'
import { StateCard } from './StateCard'
import { UpstreamCard } from './UpstreamCard'

export function ScenariosScreen() {
  const loadSettings = useSettings((state) => state.loadSettings)
  const loadClock = useSettings((state) => state.loadClock)
  const loadFaults = useSettings((state) => state.loadFaults)
  const loadPresets = useSettings((state) => state.loadPresets)
  // Reloaded with the rest of the data too (a preset, an import, the server back after a stop).
  const dataVersion = useConnection((state) => state.dataVersion)
  useEffect(() => {
    void loadSettings()
    void loadClock()
    void loadFaults()
    void loadPresets()
  }, [loadSettings, loadClock, loadFaults, loadPresets, dataVersion])

  return (
    <div className="screen scenarios" data-testid="scenarios-screen">
      <div className="grid grid--scenarios">
        <PresetsCard />
        <div className="stack stack--loose">
          <StateCard />
          <ServerSettingsCard />
          <UpstreamCard />
        </div>
      </div>
      <FaultEditor />
      <Card
        title="Emulator clock"
        description="Licenses, trials, subscriptions and tokens expire on this clock. A reset, a preset or an import without a clock puts it back to system time; an exported scenario carries its offset."
        testId="clock-card"
      >
        <div className="grid grid--2">
          <ClockControls />
          <ClockSetter />
        </div>
      </Card>
    </div>
  )
}
