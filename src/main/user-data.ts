import { join, resolve } from 'node:path'

/** The name users see; also the user-data folder name, so dev runs and the packaged app agree. */
export const PRODUCT_NAME = 'Plugin License Emulator'

/** Points the app at another user-data directory (tests, side-by-side profiles). */
export const USER_DATA_ENV = 'PLUGIN_LICENSE_EMULATOR_USER_DATA_DIR'

export interface UserDataInput {
  /** Value of Chromium's `--user-data-dir` switch; '' when absent (what app.commandLine answers). */
  switchValue: string
  env: NodeJS.ProcessEnv
  /** app.getPath('appData'): the per-user application data root of the OS. */
  appData: string
}

/**
 * Where the database, the runtime key and the window state live: `--user-data-dir`, else the
 * environment variable, else `<appData>/Plugin License Emulator`. Electron would otherwise derive
 * the folder from package.json's name in a dev run and from productName when packaged.
 */
export function resolveUserDataDir({ switchValue, env, appData }: UserDataInput): string {
  if (switchValue.trim() !== '') return resolve(switchValue)
  const fromEnv = env[USER_DATA_ENV]
  if (fromEnv && fromEnv.trim() !== '') return resolve(fromEnv)
  return join(appData, PRODUCT_NAME)
}
