import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'

/**
 * electron-vite's `?modulePath` import (a worker's entry, bundled apart, as its path) for tests run
 * from the sources: the path of the TypeScript module itself, which src/core/inspector/request-log.ts
 * starts through jiti.
 */
const modulePath: Plugin = {
  name: 'module-path-from-sources',
  enforce: 'pre',
  async resolveId(id, importer) {
    if (!id.endsWith('?modulePath')) return null
    const resolved = await this.resolve(id.slice(0, -'?modulePath'.length), importer, { skipSelf: true })
    return resolved ? `\0module-path:${resolved.id}` : null
  },
  load(id) {
    if (!id.startsWith('\0module-path:')) return null
    return `export default ${JSON.stringify(id.slice('\0module-path:'.length))}`
  }
}

const buildBundle = 'test/support/build-bundle.ts'

// Unit: core and renderer logic on real SQLite files. API: the real server on 127.0.0.1. Both
// build the bundle first (test/support/build-bundle.ts): some of their tests run out/main.
// Package: the packed tarball installed into an empty project (slow: one install compiles
// better-sqlite3; test/package/global-setup.ts does it once and reuses it while the tarball is the same).
// Playwright suites (test/e2e) run separately through scripts/run-tests.mjs.
export default defineConfig({
  plugins: [modulePath],
  test: {
    projects: [
      {
        // Each project takes the plugins above (`extends`).
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', globalSetup: [buildBundle] }
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          // The files share one module graph: importing the server afresh for each of ~100 files
          // took about 100 s of every run (CI runs this project under three Nodes). No API test
          // mocks a module or changes a global; each builds its own server, database and process.
          isolate: false,
          globalSetup: [buildBundle]
        }
      },
      {
        extends: true,
        test: {
          // The reference C++ client (examples/native-client), built with CMake and driven against a real serve.
          name: 'native',
          include: ['test/native/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          globalSetup: [buildBundle]
        }
      },
      {
        test: {
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/package/global-setup.ts'],
          testTimeout: 120_000
        }
      }
    ]
  }
})
