import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'

/**
 * `npm run dev` only: Vite's React refresh preamble is an inline script, its HMR a websocket, and
 * the API lives on the emulator's own origin (127.0.0.1), not the dev server's. Builds keep the
 * strict policy of index.html.
 */
const devCsp: Plugin = {
  name: 'dev-csp',
  apply: 'serve',
  transformIndexHtml: (html) =>
    html
      .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
      .replace("connect-src 'self'", "connect-src 'self' http://127.0.0.1:* ws://localhost:* ws://127.0.0.1:*")
}

// Main and the headless CLI share one bundle graph: both start the same server from src/server.
export default defineConfig({
  main: {
    build: {
      // What the server runs (package.json `dependencies`: fastify, jose, ...) stays external and
      // is installed by npm, so `npm audit` in a user's project sees it; the desktop app gets the
      // same packages from electron-builder. TypeBox is the exception: its ~700 modules took 130 ms
      // of every start to resolve and load (cold start, bench/README.md), so it is bundled, from the
      // installed version (every build runs from node_modules; it stays in `dependencies`).
      externalizeDeps: { exclude: ['typebox'] },
      rolldownOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          cli: resolve('src/cli/index.ts')
        }
      }
    }
  },
  preload: {
    // sandbox: true needs a CommonJS preload; the package is "type": "module".
    build: {
      rolldownOptions: {
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    plugins: [react(), devCsp]
  }
})
