import { readFile, stat } from 'node:fs/promises'
import { extname, join } from 'node:path'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'

import { NO_TOKEN } from '../auth/route-tokens'

/** What the UI may load and call: itself only. The same policy as the Electron window's. */
export const RENDERER_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'"

/** The types the built renderer's files have (electron-vite's output); anything else is bytes. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2'
}

/**
 * The file a path under `/` names in the renderer's root, or null when it names none: no empty,
 * `.`, `..` or dot-file segment (a climb out, or something hidden), no backslash or NUL, and no `~`
 * (on Windows a short name such as `ENV~1` can name a dot file; editors' backups end in it). An
 * empty path, or one ending in `/`, names that folder's index.html.
 */
export function rendererFileOf(root: string, pathUnderRoot: string): string | null {
  const segments = pathUnderRoot.split('/')
  if (segments.at(-1) === '') segments[segments.length - 1] = 'index.html'
  for (const segment of segments) {
    if (
      segment === '' ||
      segment.startsWith('.') ||
      segment.includes('\\') ||
      segment.includes('\0') ||
      segment.includes('~')
    )
      return null
  }
  return join(root, ...segments)
}

/** A tag compared weakly (RFC 9110 8.8.3.2): `W/"x"` and `"x"` are the same tag. */
const opaqueTag = (tag: string): string => tag.trim().replace(/^W\//, '')

/**
 * Whether the client's copy is the file's current one: If-None-Match (one tag, a list, or `*`)
 * when it is sent, otherwise If-Modified-Since (to the second, as Last-Modified carries it).
 */
function clientHasCurrent(headers: FastifyRequest['headers'], etag: string, modifiedMs: number): boolean {
  const ifNoneMatch = headers['if-none-match']
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaqueTag(tag) === opaqueTag(etag))
  }
  const since = headers['if-modified-since'] === undefined ? NaN : Date.parse(headers['if-modified-since'])
  return !Number.isNaN(since) && Math.floor(modifiedMs / 1000) * 1000 <= since
}

/**
 * The desktop UI (the built renderer) at /, for the Electron window and for browsers alike:
 * a few files read from disk as asked (a rebuilt UI is served without a restart), revalidated by
 * ETag or date. Written here instead of @fastify/static, whose module tree (glob, send, mime) cost
 * every start about 20 ms for three files (bench/README.md, cold start).
 */
export const rendererRoutes: FastifyPluginAsync<{ root: string }> = async (app, { root }) => {
  app.route<{ Params: { '*': string } }>({
    // HEAD answered here rather than by Fastify's from the GET: a HEAD reads no file, and its 304
    // carries no Content-Length of 0.
    method: ['GET', 'HEAD'],
    url: '/*',
    config: { tokens: NO_TOKEN },
    schema: { hide: true },
    handler: async (request, reply) => {
      const path = rendererFileOf(root, askedPath(request))
      const file = path === null ? null : await stat(path).catch(() => null)
      if (path === null || file === null || !file.isFile()) return reply.callNotFound()
      // Size and modification time, as `send` makes its weak ETag: a rebuilt file gets a new one.
      const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`
      const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
      if (clientHasCurrent(request.headers, etag, file.mtimeMs)) {
        return withUiHeaders(reply, etag, file.mtime).code(304).send()
      }
      if (request.method === 'HEAD') {
        return withUiHeaders(reply, etag, file.mtime).type(type).header('content-length', String(file.size)).send()
      }
      // Headers only once the file is read: a file gone since its stat is a plain NOT_FOUND, with
      // no validator a client could later revalidate the error with.
      const body = await readFile(path).catch(() => null)
      if (body === null) return reply.callNotFound()
      // Rewritten between stat and read: the stat's validators do not describe this body.
      return withUiHeaders(reply, body.length === file.size ? etag : null, file.mtime)
        .type(type)
        .send(body)
    }
  })
}

/**
 * The path under `/` as asked. The router ignores a trailing slash (so `/api/x/` finds `/api/x`),
 * which here would serve `/index.html/` as the page, whose relative links then resolve under a
 * folder that is not there: the slash is put back, and the path names a folder.
 */
function askedPath(request: FastifyRequest<{ Params: { '*': string } }>): string {
  const asked = request.params['*']
  const endsInSlash = (request.url.split('?', 1)[0] ?? '').endsWith('/')
  return endsInSlash && asked !== '' && !asked.endsWith('/') ? `${asked}/` : asked
}

/** The UI's policy headers, and its validators when they describe what is sent. */
function withUiHeaders(reply: FastifyReply, etag: string | null, modified: Date): FastifyReply {
  reply
    .header('content-security-policy', RENDERER_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache')
  if (etag !== null) reply.header('etag', etag).header('last-modified', modified.toUTCString())
  return reply
}
