/**
 * node:http as CommonJS code gets it. An ESM `import { ... } from 'node:http'` builds the module's
 * ESM facade, which reads every export once, and on Node 22 and 24 one of them loads Node's bundled
 * undici: about 40 ms of every start on Node 24 (bench/README.md, cold start). Fastify itself
 * requires node:http, so this is the same module, without the facade.
 */
export const nodeHttp = process.getBuiltinModule('node:http')
