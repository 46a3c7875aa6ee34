import type { FastifySerializerCompiler } from 'fastify'

/**
 * JSON.stringify as a route's serializer. For the library payloads, whose schemas (in
 * schemas/library.ts) document and type them exactly: measured on a 1,000-item library,
 * fast-json-stringify took 5.6-7.9 ms against 3.6 ms, checking every nullable field. The
 * schema-agreement test keeps the core's payload and the schema equal, so nothing extra leaks.
 */
export const plainJsonSerializer: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data)
