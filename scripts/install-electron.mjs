#!/usr/bin/env node
// `prestart` (and the start of `npm run package`): electron's own installer (install-electron),
// with its failure explained. It does nothing when the binary is there already.
// Usage: node scripts/install-electron.mjs ["npm run package"]  (the command named in the message)
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'

import { electronDownloadHelp } from './electron-download-help.mjs'

const command = process.argv[2] ?? 'npm start'
const installer = createRequire(import.meta.url).resolve('electron/install.js')
const run = spawnSync(process.execPath, [installer], { stdio: ['inherit', 'inherit', 'pipe'], encoding: 'utf8' })
if (run.status === 0) process.exit(0)

// The installer prints the error's stack: keep its first line (and a cause, if any) as the reason.
const lines = (run.stderr ?? '')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('at '))
const reason = lines.slice(0, 3).join(' / ') || `the installer exited with ${run.status ?? run.signal}`
const from = process.env.ELECTRON_MIRROR
  ? `the mirror ${process.env.ELECTRON_MIRROR}`
  : 'GitHub (github.com/electron/electron/releases)'
process.stderr.write(
  electronDownloadHelp(`${command} needs the Electron binary, and it could not be downloaded from ${from}`, reason)
)
process.exit(1)
