#!/usr/bin/env node
// The baseline: a bare Fastify app (the emulator's own Fastify, no logger, no hooks) answering a
// small JSON object. The bench runs the same load against it as against the emulator, so each
// emulator figure can be read as a share of what Fastify on this machine does at all.
// Usage: node bench/baseline-server.mjs [--port 0]; prints "... listening on URL" like `serve`.
import Fastify from 'fastify'

const portArg = process.argv.indexOf('--port')
const port = portArg === -1 ? 0 : Number(process.argv[portArg + 1])

const app = Fastify({ logger: false })
const answer = async () => ({ ok: true, valid: true, code: 'VALID' })
// POST parses a JSON body as the licensing routes do; GET covers the library-style load.
app.post('/', answer)
app.get('/', answer)

await app.listen({ host: '127.0.0.1', port })
const address = app.server.address()
process.stdout.write(
  `Baseline Fastify listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}\n`
)

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1)
    )
  })
}
