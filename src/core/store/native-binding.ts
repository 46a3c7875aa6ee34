/**
 * Names a better_sqlite3.node to load instead of node_modules' own build, which is made for one
 * ABI: the desktop app's Electron build (src/main/native-binding.ts resolves it), or a build for
 * another Node version (.ci/run runs the suites under each supported Node LTS this way, with
 * node_modules left as npm built it).
 */
export const NATIVE_BINDING_ENV = 'PLUGIN_LICENSE_EMULATOR_NATIVE_BINDING'

/** better-sqlite3's constructor options for `explicit`, else the environment's build, else none. */
export function nativeBindingOption(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env
): { nativeBinding?: string } {
  const path = explicit ?? (env[NATIVE_BINDING_ENV]?.trim() || undefined)
  return path ? { nativeBinding: path } : {}
}
