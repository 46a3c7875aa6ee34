import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const cli = fileURLToPath(new URL('../../bin/plugin-license-emulator.js', import.meta.url))

/** A `serve` process over `<dataDir>/emulator.db`, once it printed its base and admin URLs. */
export async function spawnServe(options: {
  dataDir: string
  adminToken: string
  port: string
}): Promise<{ child: ChildProcess; baseUrl: string; adminUrl: string }> {
  const child = spawn(
    process.execPath,
    [
      cli,
      'serve',
      '--port',
      options.port,
      '--db',
      join(options.dataDir, 'emulator.db'),
      '--admin-token',
      options.adminToken
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe']
    }
  )
  let stderr = ''
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)))
  const lines = createInterface({ input: child.stdout })
  const ready = await new Promise<{ baseUrl: string; adminUrl: string }>((resolve, reject) => {
    let baseUrl = ''
    lines.on('line', (line) => {
      const listening = /listening on (http:\/\/\S+)$/.exec(line)
      if (listening) baseUrl = listening[1]!
      const admin = /^Admin UI: (\S+)$/.exec(line)
      if (admin && baseUrl) resolve({ baseUrl, adminUrl: admin[1]! })
    })
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before it was ready: ${stderr}`)))
  })
  return { child, ...ready }
}
