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
  // One file at a time. Two workers (each its own `serve` and browser) took the suite from about 14
  // to 10 min on this 2-core machine, but a browser starved of CPU let screens load past a check's
  // wait (a Credentials detail after 5 s): CI must pass every time.
  workers: 1,
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
