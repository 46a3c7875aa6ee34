import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

// Browser tests run Debian's Chromium (Playwright's own browser download is not possible here);
// set CHROMIUM_PATH to use another. The Electron project launches the real app where the
// Electron binary is installed and reports a clear skip where it is not.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two files at a time, each worker with its own `serve` (test/e2e/fixtures.ts) and browser: much
  // of a UI test is waiting (for the change feed, a toast, a redraw). On this 2-core machine the
  // suite took 10 min against about 14 with one worker.
  workers: 2,
  fullyParallel: false,
  reporter: [['list']],
  projects: [
    {
      name: 'ui',
      testDir: 'test/e2e',
      use: {
        viewport: { width: 1280, height: 800 },
        screenshot: 'only-on-failure',
        trace: 'off',
        launchOptions: {
          ...(existsSync(chromium) ? { executablePath: chromium } : {}),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync'
          ]
        }
      }
    },
    {
      name: 'electron',
      testDir: 'test/electron'
    }
  ]
})
