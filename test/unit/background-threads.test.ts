import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, describe, expect, it } from 'vitest'

import { killAllCli, projectRoot, spawnCommand } from '../support/cli-process'
import { makeTempDir } from '../support/temp-dir'

const source = (relative: string) => fileURLToPath(new URL(`../../src/${relative}`, import.meta.url))
const resolve = createRequire(import.meta.url).resolve
const jitiCli = join(resolve('jiti'), '..', '..', 'lib', 'jiti-cli.mjs')
/** Far longer than the script needs (about 2 s from the sources); a process kept alive runs into it. */
const EXIT_WAIT_MS = 30_000

// The request log's worker and the WAL checkpointer's are unref'd: a script that uses the core
// and never closes it (bench/library-service-time.ts on a fresh database) still ends. A Worker's
// first 'message' listener refs it again (nodejs/node#53036), so each is unref'd after its listeners.
describe('background threads keep no process alive', () => {
  const dir = makeTempDir('background-threads')
  afterEach(killAllCli)
  afterAll(() => dir.remove())

  it('a process whose request log and WAL checkpointer are running, never closed, ends by itself', async () => {
    const script = join(dir.path, 'leave-open.ts')
    writeFileSync(
      script,
      `
      import BetterSqlite3 from ${JSON.stringify(resolve('better-sqlite3'))}
      import { createClock } from ${JSON.stringify(source('core/clock/clock.ts'))}
      import { createRequestLog } from ${JSON.stringify(source('core/inspector/request-log.ts'))}
      import { nativeBindingOption } from ${JSON.stringify(source('core/store/native-binding.ts'))}
      import { startWalCheckpointer } from ${JSON.stringify(source('core/store/wal-checkpointer.ts'))}

      const log = createRequestLog({ path: ${JSON.stringify(join(dir.path, 'log.requests'))}, capacity: 10, clock: createClock() })
      // A read starts the worker and waits for its answer.
      console.log('log read', log.newestId())
      const path = ${JSON.stringify(join(dir.path, 'data.db'))}
      const db = new BetterSqlite3(path, nativeBindingOption())
      db.pragma('journal_mode = WAL')
      const checkpointer = startWalCheckpointer({ path, nativeBinding: nativeBindingOption().nativeBinding, onFailure: (error) => console.error(error) })
      // Nothing else holds the process open while it waits for the checkpointer to start.
      const holding = setInterval(() => undefined, 1000)
      console.log('checkpointer ready', await checkpointer.ready)
      clearInterval(holding)
      `
    )
    const leftOpen = spawnCommand(process.execPath, [jitiCli, script], { cwd: projectRoot })
    const ended = await Promise.race([
      leftOpen.exited,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), EXIT_WAIT_MS))
    ])
    expect(leftOpen.stderr()).toBe('')
    expect(leftOpen.stdoutLines()).toEqual(['log read 0', 'checkpointer ready true'])
    expect(ended).toEqual({ code: 0, signal: null })
  }, 60_000)
})
