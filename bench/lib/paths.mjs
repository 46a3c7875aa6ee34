// Where the bench finds the project and writes its output.
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
/** The command line as a user runs it; it imports the built bundle out/main/cli.js. */
export const cliEntry = join(projectRoot, 'bin', 'plugin-license-emulator.js')
export const cliBundle = join(projectRoot, 'out', 'main', 'cli.js')
export const baselineScript = join(projectRoot, 'bench', 'baseline-server.mjs')
export const limitScript = join(projectRoot, 'bench', 'limit-server.mjs')
export const resultsDir = join(projectRoot, 'bench', 'results')
export const profilesDir = join(projectRoot, 'bench', 'profiles')
