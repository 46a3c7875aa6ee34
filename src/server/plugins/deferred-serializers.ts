import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type SerializerFactory = ReturnType<typeof SerializerSelector>

/**
 * Fastify's own response serializers (fast-json-stringify, with the shared schemas), each compiled
 * when its route first answers with that status instead of all of them while the server starts:
 * compiling every response schema up front was 170 ms of the 450 ms `serve` took to answer its
 * first health check (measured with --cpu-prof). What a serializer writes is unchanged.
 */
export const deferredSerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options)
  return (route) => {
    let serialize: ((data: unknown) => string) | null = null
    return (data) => {
      serialize ??= compile(route)
      return serialize(data)
    }
  }
}
