#!/usr/bin/env node
// The command line runs the built bundle (out/main/cli.js): `npm run build` makes it.
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

const entry = fileURLToPath(new URL('../out/main/cli.js', import.meta.url))
if (!existsSync(entry)) {
  process.stderr.write('plugin-license-emulator is not built yet: run `npm run build` first.\n')
  process.exit(1)
}
await import(pathToFileURL(entry).href)
