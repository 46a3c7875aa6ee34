import type { FastifySerializerCompiler } from 'fastify'

/**
 * JSON.stringify as a route's serializer, for answers built with exactly their schema's fields in
 * its order (fast-json-stringify would drop any other and write that order; the tests hold each to both):
 * - a plugin's calls (verify, activate, validate, deactivate) and health: built field by field,
 *   held by test/api/answers-exact-fields.test.ts. With them, a start and a plugin's session never
 *   load fast-json-stringify's compiler (deferred-serializers.ts), which wrote validate's answer 0.6 us
 *   faster, of a call's ~300;
 * - the library routes' answers, whose schemas (schemas/library.ts) type them exactly
 *   (test/unit/library-schema-types.test.ts): on a 1,000-item library fast-json-stringify took
 *   5.6-7.9 ms against 3.6 ms, checking every nullable field. Their 200 answers are now written in
 *   chunks (http/json-chunks.ts), with the same JSON.stringify text; their errors come here.
 */
export const plainJsonSerializer: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data)
