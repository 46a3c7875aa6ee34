import { useEffect } from 'react'

import { useConnection } from '../stores/connection'
import { boot } from './bootstrap'
import { ConnectionGate } from './ConnectionGate'
import { Shell } from './Shell'

export function App() {
  const phase = useConnection((state) => state.phase)
  useEffect(() => {
    void boot()
  }, [])
  return phase === 'ready' ? <Shell /> : <ConnectionGate />
}
