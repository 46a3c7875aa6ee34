// Scale: validate latency over a large database (100,000 licenses and 1,000,000 activations in
// the full run), each request a random license and one of its activated instances, so lookups
// go through the indexes rather than a few hot rows.
import { join } from 'node:path'

import { startEmulator } from './emulator.mjs'
import { pluginHeaders, preflight } from './endpoints.mjs'
import { warmAndMeasure } from './load.mjs'
import { profileRef } from './profiling.mjs'
import { scaleInstanceId, scaleLicenseKey, seedScaleDatabase } from './seed-scale.mjs'

const SCALE_BODIES = 20_000

/** @param {import('./config.mjs').BenchConfig} config */
export async function runScale(config, workDir, log) {
  const databasePath = join(workDir, 'scale.db')
  const seeded = await seedScaleDatabase(databasePath, config.scale)
  log(
    `  seeded ${seeded.rows.licenses.toLocaleString('en-US')} licenses, ${seeded.rows.activations.toLocaleString('en-US')} activations ` +
      `in ${Math.round(seeded.seedMs)} ms (serve create+migrate+import ${Math.round(seeded.migrateMs)} ms), file ${seeded.fileMiB} MiB`
  )
  const emu = await startEmulator({ databasePath, profileName: config.profile ? 'scale-validate' : null })
  try {
    const { licenses, activationsPerLicense } = config.scale
    // Random licenses drawn before the run, cycled by the generator: enough that the cycle
    // never keeps the rows it touches hot.
    const bodies = Array.from({ length: SCALE_BODIES }, () => {
      const i = Math.floor(Math.random() * licenses)
      return {
        license_key: scaleLicenseKey(i),
        instance_id: scaleInstanceId(i, Math.floor(Math.random() * activationsPerLicense))
      }
    })
    const spec = { method: 'POST', path: '/api/license/v1/validate', headers: pluginHeaders(seeded.plugin), bodies }
    await preflight(emu.baseUrl, spec)
    const result = await warmAndMeasure(emu.baseUrl, spec, config, emu.pid)
    log(`  validate at scale: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`)
    return {
      name: 'scale-validate',
      label: `validate, ${licenses.toLocaleString('en-US')} licenses / ${seeded.rows.activations.toLocaleString('en-US')} activations`,
      ...result,
      profile: config.profile ? profileRef('scale-validate', emu, result) : null,
      seed: {
        method:
          'serve (migrate) + PUT /_emulator/state (credential) + better-sqlite3 INSERT ... SELECT in one transaction',
        ...seeded,
        plugin: undefined
      }
    }
  } catch (error) {
    throw new Error(`scale: ${error.message}\nserver stderr:\n${emu.stderr()}`)
  } finally {
    await emu.stop()
  }
}
