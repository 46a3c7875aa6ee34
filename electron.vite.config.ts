import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'

// Bundled into out/main, so they are devDependencies: the published package (and the desktop app)
// needs only better-sqlite3 at run time.
const BUNDLED_DEPENDENCIES = ['fastify', 'fastify-plugin', '@fastify/swagger', '@fastify/static', '@fastify/type-provider-typebox', 'typebox', 'jose']

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
      // Bundle the pure-JS dependencies: loading hundreds of small files was half of cold start.
      // better-sqlite3 (native) and electron stay external.
      externalizeDeps: { exclude: BUNDLED_DEPENDENCIES },
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
