import { createRequire } from 'node:module'
import type { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type SerializerFactory = ReturnType<typeof SerializerSelector>

// Not named `require`: the bundle declares one of its own.
const requireDependency = createRequire(import.meta.url)

/**
 * Fastify's own response serializers (fast-json-stringify, with the shared schemas), each compiled
 * when its route first answers with that status instead of all of them while the server starts:
 * compiling every response schema up front was 170 ms of the 450 ms `serve` took to answer its
 * first health check (measured with --cpu-prof). The compiler itself (fast-json-stringify and the
 * Ajv it checks schemas with) is loaded on the first compile too, not at start: about 45 ms of a
 * start on Node 24 (bench/README.md), and health and a plugin's calls never need it (their routes
 * answer with JSON.stringify). What a serializer writes is unchanged.
 */
export const deferredSerializers: SerializerFactory = (externalSchemas, options) => {
  let compile: ReturnType<SerializerFactory> | null = null
  return (route) => {
    let serialize: ((data: unknown) => string) | null = null
    return (data) => {
      if (serialize === null) {
        compile ??= (
          requireDependency(
            '@fastify/fast-json-stringify-compiler'
          ) as typeof import('@fastify/fast-json-stringify-compiler')
        ).SerializerSelector()(externalSchemas, options)
        serialize = compile(route)
      }
      return serialize(data)
    }
  }
}
