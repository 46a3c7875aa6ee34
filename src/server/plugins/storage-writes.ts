import fp from 'fastify-plugin'

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'grouped': the route reads and writes through the store's group commit, which waits for
     * another process's write lock itself (or, for a read's stamp, does without it): no wait here.
     * 'reads': a POST (for its large body) that writes nothing, such as a preview: no wait either.
     * 'memory': a change to what the server holds in memory only (fault rules, the clock, the
     * upstream, a replay, the drift report): nothing to wait for while another program holds the lock.
     */
    storage?: 'grouped' | 'reads' | 'memory'
  }
}

const WRITING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Storage faults (docs/api.md section 1). A request that may write first waits, asynchronously, until
 * the database takes writes (another process may hold its write lock): the event loop keeps
 * answering health, the UI and every read meanwhile, and past the busy timeout the request answers
 * 503 STORAGE_BUSY. Each episode of failing writes is logged once when it starts and once when it ends.
 */
export const storageWrites = fp(
  async (app) => {
    const { storage } = app.core
    app.addHook('preHandler', async (request) => {
      if (!WRITING_METHODS.has(request.method) || request.routeOptions.config.storage !== undefined) return
      await storage.whenWritable()
    })
    const stop = storage.health.onChange((fault, ended) => {
      if (fault) app.log.warn({ storage: fault.code, since: fault.since }, `storage: writes fail: ${fault.message}`)
      // At the level of the line it ends, so whoever saw the episode start (the default level is warn) sees it end.
      else if (ended) app.log.warn({ storage: ended.code, since: ended.since }, 'storage: writes succeed again')
    })
    app.addHook('onClose', async () => {
      stop()
    })
  },
  { name: 'storage-writes', dependencies: ['emulator-context'] }
)
