import { useEffect, useState } from 'react'

/** Placeholder until the desktop UI lands: shows that the embedded server answers. */
export function App() {
  const [status, setStatus] = useState('connecting...')
  useEffect(() => {
    const connect = async () => {
      const baseUrl = window.emulatorDesktop ? (await window.emulatorDesktop.connection()).baseUrl : window.location.origin
      const response = await fetch(`${baseUrl}/_emulator/health`)
      const health = (await response.json()) as { version: string }
      setStatus(`running at ${baseUrl} (version ${health.version})`)
    }
    connect().catch(() => setStatus('the emulator server does not answer'))
  }, [])
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', margin: '3rem auto', maxWidth: '40rem' }}>
      <h1>Plugin License Emulator</h1>
      <p>Server: {status}</p>
    </main>
  )
}
