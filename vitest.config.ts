import { defineConfig } from 'vitest/config'

// Unit: core and renderer logic on real SQLite files. API: the real server on 127.0.0.1.
// Playwright suites (test/e2e) run separately through scripts/run-tests.mjs.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'api', include: ['test/api/**/*.test.ts'], environment: 'node', testTimeout: 30_000 } }
    ]
  }
})
