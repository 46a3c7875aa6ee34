import { join } from 'node:path'

import { NATIVE_BINDING_ENV } from '../core/store/native-binding'

/**
 * better-sqlite3 is a native addon, built for one ABI. node_modules holds the Node build (tests,
 * `serve`); Electron has another ABI, so the app loads a second build through better-sqlite3's
 * `nativeBinding` option instead of rebuilding node_modules in place, which would break the other.
 * `npm run build:native:electron` (scripts/build-electron-native.mjs) makes that build under
 * build/native/<dir>/; electron-builder copies it to <resources>/native/<dir>/. Keep the naming
 * here and in that script the same (test/unit/main-native-binding.test.ts checks it).
 */
export const NATIVE_BINDING_FILE = 'better_sqlite3.node'

/** Names a different path to the Electron build of better_sqlite3.node (a custom build). */
export { NATIVE_BINDING_ENV }

/** One directory per Electron ABI and target, so builds for several Electrons or arches coexist. */
export function electronNativeDirName(target: { abi: string; platform: string; arch: string }): string {
  return `electron-v${target.abi}-${target.platform}-${target.arch}`
}

export interface NativeBindingInput {
  /** process.versions.electron: undefined under plain Node. */
  electronVersion: string | undefined
  /** process.versions.modules: the ABI (NODE_MODULE_VERSION) of the running runtime. */
  abi: string
  platform: string
  arch: string
  isPackaged: boolean
  /** process.resourcesPath: where extraResources land in a packaged app. */
  resourcesPath: string
  /** app.getAppPath(): the project root in a dev run (where package.json is). */
  appPath: string
  env: NodeJS.ProcessEnv
  exists(path: string): boolean
}

export type NativeBindingResult = { ok: true; path: string | undefined } | { ok: false; message: string }

/** Which better_sqlite3.node the embedded server must load, or why there is none. */
export function resolveNativeBinding(input: NativeBindingInput): NativeBindingResult {
  // Under plain Node the addon in node_modules already matches the running ABI.
  if (input.electronVersion === undefined) return { ok: true, path: undefined }

  const override = input.env[NATIVE_BINDING_ENV]
  if (override && override.trim() !== '') {
    return input.exists(override)
      ? { ok: true, path: override }
      : { ok: false, message: `${NATIVE_BINDING_ENV} names ${override}, which does not exist.` }
  }

  const dir = electronNativeDirName(input)
  const path = input.isPackaged
    ? join(input.resourcesPath, 'native', dir, NATIVE_BINDING_FILE)
    : join(input.appPath, 'build', 'native', dir, NATIVE_BINDING_FILE)
  if (input.exists(path)) return { ok: true, path }

  const target = `Electron ${input.electronVersion}, ABI ${input.abi}, ${input.platform}-${input.arch}`
  return {
    ok: false,
    message: input.isPackaged
      ? `This copy of the app lacks its SQLite module for ${target} (${path}). ` +
        'It was packaged without `npm run build:native:electron`; install a complete build.'
      : `There is no better-sqlite3 build for ${target} at ${path}. ` +
        "Run `npm run build:native:electron` once (it downloads Electron's headers, so it needs network access); " +
        'node_modules/better-sqlite3 stays the Node build that tests and `serve` use.'
  }
}
