import { runDesktopApp } from './desktop-app'

// The Electron entry point. Everything is in small modules beside this file; desktop-app.ts wires
// them. `import.meta.dirname` is out/main here, where the preload and the built UI are found.
void runDesktopApp({ mainDir: import.meta.dirname }).catch((error: unknown) => {
  console.error('[desktop] start-up failed', error)
  process.exit(1)
})
