#!/usr/bin/env node
// The command line runs the built bundle (out/main/cli.js): `npm run build` makes it.
import { existsSync } from 'node:fs'
import module from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

const entry = fileURLToPath(new URL('../out/main/cli.js', import.meta.url))
if (!existsSync(entry)) {
  process.stderr.write('plugin-license-emulator is not built yet: run `npm run build` first.\n')
  process.exit(1)
}
// Node 22.1+ keeps the compiled code of the server's packages in its compile cache (the OS temp
// folder), so every start after the first skips compiling them (cold start, bench/README.md). Node 20 has none.
module.enableCompileCache?.()
await import(pathToFileURL(entry).href)
