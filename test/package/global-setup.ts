import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

import { projectRoot } from '../support/cli-process'

// The 'package' project's tests use the package as a user gets it: `npm pack` (which runs the
// prepack build), then `npm install --omit=dev <tarball>` into an empty project. Done once per run
// for every file of the project. The install compiles better-sqlite3 (its prebuilt binaries come
// from GitHub, out of reach on offline machines), so an install is kept under .tmp/package and
// reused while the tarball is byte-for-byte the same (npm pack is reproducible), one per Node ABI:
// .ci/run runs this project under each supported Node LTS, and each compiles its own better-sqlite3.

export interface PackedPackage {
  /** The .tgz `npm pack` made. */
  tarball: string
  /** Its size in bytes, and the paths it holds (relative to the package root). */
  tarballBytes: number
  files: string[]
  /** An empty project with only the tarball installed (no devDependencies). */
  projectDir: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    packedPackage: PackedPackage
  }
}

const workDir = join(projectRoot, '.tmp', 'package')

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' }
  })
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

interface PackResult {
  filename: string
  size: number
  shasum: string
  files: Array<{ path: string }>
}

export default function setup(project: TestProject): void {
  mkdirSync(workDir, { recursive: true })
  const packed = (
    JSON.parse(run('npm', ['pack', '--json', '--pack-destination', workDir], projectRoot)) as PackResult[]
  )[0]!
  const tarball = join(workDir, packed.filename)
  const abiPrefix = `install-node${process.versions.modules}-`
  const projectDir = join(workDir, `${abiPrefix}${packed.shasum.slice(0, 12)}`)
  const marker = join(projectDir, '.installed')
  if (!existsSync(marker)) {
    for (const name of readdirSync(workDir)) {
      const otherNode = /^install-node\d+-/.test(name) && !name.startsWith(abiPrefix)
      if (name.startsWith('install-') && !otherNode) rmSync(join(workDir, name), { recursive: true, force: true })
    }
    mkdirSync(projectDir, { recursive: true })
    writeFileSync(
      join(projectDir, 'package.json'),
      `${JSON.stringify({ name: 'packed-install-check', private: true }, null, 2)}\n`
    )
    run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', tarball], projectDir)
    writeFileSync(marker, `${packed.shasum}\n`)
  }
  project.provide('packedPackage', {
    tarball,
    tarballBytes: packed.size,
    files: packed.files.map((f) => f.path),
    projectDir
  })
}
