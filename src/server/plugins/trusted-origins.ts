import fp from 'fastify-plugin'

/**
 * CORS for the few origins the server is told to trust (the renderer's Vite dev server in
 * `npm run dev`). Everything else stays same-origin: no CORS headers, so browsers block it.
 */
export const trustedOrigins = fp(
  async (app) => {
    const trusted = new Set(app.settings.trustedOrigins)
    if (trusted.size === 0) return
    app.addHook('onRequest', async (request, reply) => {
      const origin = request.headers.origin
      // A web view route already answered for every origin (web-view-cors.ts).
      if (origin === undefined || !trusted.has(origin) || reply.hasHeader('access-control-allow-origin')) return
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
      if (request.method === 'OPTIONS') {
        const asked = request.headers['access-control-request-headers']
        await reply
          .code(204)
          .header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE')
          .header(
            'access-control-allow-headers',
            typeof asked === 'string' ? asked : 'content-type, authorization, x-emulator-token'
          )
          .header('access-control-max-age', '600')
          .send()
      }
    })
  },
  { name: 'trusted-origins', dependencies: ['emulator-context'] }
)
