import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

import { electronNativeDirName, NATIVE_BINDING_ENV, resolveNativeBinding } from '../../src/main/native-binding'
import type { NativeBindingInput } from '../../src/main/native-binding'

// Which better_sqlite3.node the app loads: the logic only (the Electron build itself cannot be
// made here, without network access for Electron's headers).

const root = resolve(import.meta.dirname, '../..')

function input(overrides: Partial<NativeBindingInput> = {}, existing: readonly string[] = []): NativeBindingInput {
  return {
    electronVersion: '45.4.1',
    abi: '150',
    platform: 'linux',
    arch: 'x64',
    isPackaged: false,
    resourcesPath: '/opt/Plugin License Emulator/resources',
    appPath: '/src/emulator',
    env: {},
    exists: (path) => existing.includes(path),
    ...overrides
  }
}

describe('resolveNativeBinding', () => {
  it('needs nothing under plain Node: node_modules holds the Node build', () => {
    expect(resolveNativeBinding(input({ electronVersion: undefined }))).toEqual({ ok: true, path: undefined })
  })

  it('uses build/native/electron-v<abi>-<platform>-<arch> in a dev run', () => {
    const path = '/src/emulator/build/native/electron-v150-linux-x64/better_sqlite3.node'
    expect(resolveNativeBinding(input({}, [path]))).toEqual({ ok: true, path })
  })

  it('uses <resources>/native/... in a packaged app', () => {
    const path = '/opt/Plugin License Emulator/resources/native/electron-v150-linux-x64/better_sqlite3.node'
    expect(resolveNativeBinding(input({ isPackaged: true }, [path]))).toEqual({ ok: true, path })
  })

  it('keys the directory on ABI, platform and arch, so builds for other Electrons never load', () => {
    const other = '/src/emulator/build/native/electron-v140-linux-x64/better_sqlite3.node'
    expect(resolveNativeBinding(input({}, [other])).ok).toBe(false)
    expect(electronNativeDirName({ abi: '150', platform: 'darwin', arch: 'arm64' })).toBe('electron-v150-darwin-arm64')
  })

  it('tells a developer which command makes the missing build', () => {
    const result = resolveNativeBinding(input())
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.message).toContain('npm run build:native:electron')
    expect(result.message).toContain('Electron 45.4.1, ABI 150, linux-x64')
    expect(result.message).toContain(
      join('/src/emulator', 'build', 'native', 'electron-v150-linux-x64', 'better_sqlite3.node')
    )
  })

  it('says a packaged app is incomplete rather than asking users to run npm', () => {
    const result = resolveNativeBinding(input({ isPackaged: true }))
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.message).toMatch(/packaged without .*install a complete build/)
  })

  it('honours an explicit path, and refuses one that does not exist', () => {
    expect(
      resolveNativeBinding(input({ env: { [NATIVE_BINDING_ENV]: '/custom/b.node' } }, ['/custom/b.node']))
    ).toEqual({ ok: true, path: '/custom/b.node' })
    expect(resolveNativeBinding(input({ env: { [NATIVE_BINDING_ENV]: '/custom/b.node' } })).ok).toBe(false)
  })

  it('agrees with scripts/build-electron-native.mjs on where the build goes', () => {
    const printed = execFileSync(
      process.execPath,
      [join(root, 'scripts', 'build-electron-native.mjs'), '--print-out-dir'],
      { encoding: 'utf8' }
    ).trim()
    const abi = readFileSync(join(root, 'node_modules', 'electron', 'abi_version'), 'utf8').trim()
    const version = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8'))
      .version as string
    const expected = join(
      root,
      'build',
      'native',
      electronNativeDirName({ abi, platform: process.platform, arch: process.arch }),
      'better_sqlite3.node'
    )
    expect(join(printed, 'better_sqlite3.node')).toBe(expected)
    const resolved = resolveNativeBinding(
      input({ electronVersion: version, abi, platform: process.platform, arch: process.arch, appPath: root }, [
        expected
      ])
    )
    expect(resolved).toEqual({ ok: true, path: expected })
  })
})
