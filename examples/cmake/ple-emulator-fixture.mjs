#!/usr/bin/env node
// The emulator for a plugin's CTest run (PluginLicenseEmulator.cmake calls this; Node is there
// anyway, for npx). Cross-platform, no shell:
//   start  --state-dir DIR -- <command...>   start `serve --ready-json` in the background; return
//                                            once it listens (DIR/ready.json, DIR/pid, DIR/emulator.log)
//   stop   --state-dir DIR                   SIGTERM, and wait for the exit
//   header --state-dir DIR --scenario FILE --output FILE -- <command...>
//                                            start, write the C++ header for the scenario's first
//                                            credential with the base URL and the public key, stop
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'

const split = process.argv.indexOf('--')
const own = split < 0 ? process.argv.slice(2) : process.argv.slice(2, split)
const command = split < 0 ? [] : process.argv.slice(split + 1)
const { values, positionals } = parseArgs({
  args: own,
  allowPositionals: true,
  options: { 'state-dir': { type: 'string' }, scenario: { type: 'string' }, output: { type: 'string' } }
})
const mode = positionals[0]
const stateDir = values['state-dir']
if (!stateDir || !['start', 'stop', 'header'].includes(mode)) {
  console.error(
    'usage: ple-emulator-fixture.mjs start|stop|header --state-dir DIR [--scenario FILE --output FILE] [-- command...]'
  )
  process.exit(2)
}
const files = { ready: join(stateDir, 'ready.json'), pid: join(stateDir, 'pid'), log: join(stateDir, 'emulator.log') }

async function start() {
  if (command.length === 0) throw new Error('start needs the command after --')
  mkdirSync(stateDir, { recursive: true })
  rmSync(files.ready, { force: true })
  const log = openSync(files.log, 'w')
  const child = spawn(command[0], command.slice(1), {
    detached: true,
    stdio: ['ignore', 'pipe', log],
    shell: process.platform === 'win32'
  })
  const line = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the emulator was not ready within 120 s')), 120_000)
    createInterface({ input: child.stdout }).once('line', (first) => {
      clearTimeout(timer)
      resolve(first)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the emulator exited with code ${code} before it was ready`))
    })
  }).catch((error) => {
    child.kill('SIGKILL')
    console.error(`${error.message}; its log:\n${readFileSync(files.log, 'utf8')}`)
    process.exit(1)
  })
  const ready = JSON.parse(line)
  writeFileSync(files.ready, `${JSON.stringify(ready)}\n`)
  writeFileSync(files.pid, `${ready.pid ?? child.pid}\n`)
  child.stdout.destroy()
  child.unref()
  return ready
}

async function stop() {
  if (!existsSync(files.pid)) return
  const pid = Number(readFileSync(files.pid, 'utf8'))
  rmSync(files.pid, { force: true })
  try {
    process.kill(pid, 'SIGTERM')
  } catch {
    return // already gone
  }
  for (let waited = 0; waited < 15_000; waited += 100) {
    try {
      process.kill(pid, 0)
    } catch {
      return
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  process.kill(pid, 'SIGKILL')
}

/** A C string literal (the values are ASCII identifiers and URLs; escape what C needs anyway). */
const cString = (value) => JSON.stringify(String(value)).replace(/\?/g, '\\?')

async function header() {
  if (!values.scenario || !values.output) throw new Error('header needs --scenario and --output')
  const scenario = JSON.parse(readFileSync(values.scenario, 'utf8'))
  const credential = scenario.credentials[0]
  const product = scenario.products.find((p) => p.id === credential.productId)
  const ready = await start()
  try {
    const { public_key_hex: publicKeyHex } = await (await fetch(`${ready.baseUrl}/api/license/v1/public-key`)).json()
    const constants = {
      kAppId: product.appId,
      kPluginKey: credential.pluginKey,
      kPluginSecret: credential.pluginSecret,
      kProductId: product.id,
      kDeveloperId: product.developerId ?? '',
      kEnvironment: 'development',
      kApiBaseUrl: ready.baseUrl,
      kHeaderPrefix: 'svc',
      // Named as the client's environment variable, as the desktop UI's export names it.
      PLE_PUBLIC_KEY_HEX: publicKeyHex
    }
    const lines = [
      '// Plugin runtime config for tests against the emulator (written by ple-emulator-fixture.mjs),',
      '// in the shape of the C++ header the desktop UI exports.',
      '#pragma once',
      '',
      'namespace plugin_license_config {',
      ...Object.entries(constants).map(([name, value]) => `inline constexpr const char* ${name} = ${cString(value)};`),
      '}  // namespace plugin_license_config',
      ''
    ]
    const text = lines.join('\n')
    // Unchanged text is not rewritten: the build does not redo what it already has.
    if (!existsSync(values.output) || readFileSync(values.output, 'utf8') !== text) writeFileSync(values.output, text)
  } finally {
    await stop()
  }
}

try {
  if (mode === 'start') await start()
  else if (mode === 'stop') await stop()
  else await header()
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
