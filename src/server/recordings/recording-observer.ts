import fp from 'fastify-plugin'

/**
 * Recording (docs/upstream.md): registered after the upstream plugin, it hands every forwarded
 * exchange to the core's recordings, which keep it (fingerprinted) while a recording runs, with
 * the size and SHA-256 the forwarding counted of its whole bodies (its copies stop at 1 MiB).
 */
export const recordingObserver = fp(
  async (app) => {
    const { recordings } = app.core
    app.upstream.addObserver({ observe: (exchange) => recordings.observe(exchange) })
  },
  { name: 'recording-observer', dependencies: ['emulator-context', 'replay'] }
)
