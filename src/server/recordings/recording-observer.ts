import fp from 'fastify-plugin'

/**
 * Recording (docs/upstream.md): registered after the upstream plugin, it hands every forwarded
 * exchange to the core's recordings, which keep it (fingerprinted) while a recording runs.
 */
export const recordingObserver = fp(
  async (app) => {
    app.upstream.addObserver(app.core.recordings)
  },
  { name: 'recording-observer', dependencies: ['emulator-context', 'replay'] }
)
