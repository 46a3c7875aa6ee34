// What a load generator sends, prepared before the run: the generator builds nothing per request
// but the cycle index (and, for a unique body, a counter). Both generators read the same
// prepared form, so the choice of generator cannot change what the servers are asked.

import { randomBytes } from 'node:crypto'

/** A tag unique to one generator process, so marked bodies never repeat across runs on one server. */
export function runTag() {
  return randomBytes(4).toString('hex')
}

/** The marker a body carries where each request needs a number of its own (activate's instance). */
export const UNIQUE_MARKER = '{n}'

/**
 * @typedef {object} LoadSpec
 * @property {'GET' | 'POST'} method
 * @property {string} path
 * @property {Record<string, string>} [headers]
 * @property {unknown} [body]       one fixed JSON body
 * @property {unknown[]} [bodies]   JSON bodies sent in turn, cycled; a string holding UNIQUE_MARKER
 *                                  gets a number unique to the run in its place
 * @property {number} [expectStatus] every answer must have it (default 200)
 */

/**
 * The spec as the generators take it: serialised bodies, and whether they carry the marker.
 * @param {LoadSpec} spec
 * @returns {{ method: string, path: string, headers: Record<string, string>, bodies: string[], unique: boolean, expectStatus: number }}
 */
export function prepareRequests(spec) {
  const list = spec.bodies ?? (spec.body !== undefined ? [spec.body] : [])
  if (spec.bodies && spec.bodies.length === 0) throw new Error(`${spec.method} ${spec.path}: an empty bodies list`)
  const bodies = list.map((body) => JSON.stringify(body))
  const marked = bodies.filter((body) => body.includes(UNIQUE_MARKER)).length
  if (marked !== 0 && marked !== bodies.length)
    throw new Error(`${spec.method} ${spec.path}: either every body carries ${UNIQUE_MARKER} or none does`)
  if (bodies.some((body) => body.indexOf(UNIQUE_MARKER) !== body.lastIndexOf(UNIQUE_MARKER))) {
    throw new Error(`${spec.method} ${spec.path}: a body carries ${UNIQUE_MARKER} more than once`)
  }
  const headers = { ...(bodies.length ? { 'content-type': 'application/json' } : {}), ...spec.headers }
  return {
    method: spec.method,
    path: spec.path,
    headers,
    bodies,
    unique: marked > 0,
    expectStatus: spec.expectStatus ?? 200
  }
}

/** The first body as one request sends it (the preflight's), the marker filled with `fill`. */
export function firstBody(spec, fill = 'preflight') {
  const { bodies } = prepareRequests(spec)
  return bodies.length ? JSON.parse(bodies[0].replace(UNIQUE_MARKER, fill)) : undefined
}

/**
 * The request file wrk-load.lua reads: one line each, `M method`, `P path`, `H name: value`,
 * `U` when bodies carry the marker, `B body`. JSON.stringify never writes a raw line break, so a
 * body is always one line; a header with one would break the format and is refused.
 */
export function requestFileText(spec) {
  const prepared = prepareRequests(spec)
  const lines = [`M ${prepared.method}`, `P ${prepared.path}`]
  for (const [name, value] of Object.entries(prepared.headers)) {
    if (/[\r\n]/.test(name + value) || name.includes(':'))
      throw new Error(`header ${JSON.stringify(name)} cannot be written to a request file`)
    lines.push(`H ${name}: ${value}`)
  }
  if (prepared.unique) lines.push('U')
  for (const body of prepared.bodies) lines.push(`B ${body}`)
  return `${lines.join('\n')}\n`
}
