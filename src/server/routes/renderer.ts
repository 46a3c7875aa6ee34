import { readFile, stat } from 'node:fs/promises'
import { extname, join } from 'node:path'
import type { FastifyPluginAsync } from 'fastify'

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
 * `.`, `..` or dot-file segment (a climb out, or something hidden), no backslash or NUL. An empty
 * path, or one ending in `/`, names that folder's index.html.
 */
export function rendererFileOf(root: string, pathUnderRoot: string): string | null {
  const segments = pathUnderRoot.split('/')
  if (segments.at(-1) === '') segments[segments.length - 1] = 'index.html'
  for (const segment of segments) {
    if (segment === '' || segment.startsWith('.') || segment.includes('\\') || segment.includes('\0')) return null
  }
  return join(root, ...segments)
}

/** Whether an If-None-Match (one tag, a list, or `*`) holds the file's current tag. */
function revalidates(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')
}

/**
 * The desktop UI (the built renderer) at /, for the Electron window and for browsers alike:
 * a few files read from disk as asked (a rebuilt UI is served without a restart), revalidated by
 * ETag. Written here instead of @fastify/static, whose module tree (glob, send, mime) cost every
 * start about 20 ms for three files (bench/README.md, cold start).
 */
export const rendererRoutes: FastifyPluginAsync<{ root: string }> = async (app, { root }) => {
  app.get<{ Params: { '*': string } }>(
    '/*',
    { config: { tokens: NO_TOKEN }, schema: { hide: true } },
    async (request, reply) => {
      const path = rendererFileOf(root, request.params['*'])
      const file = path === null ? null : await stat(path).catch(() => null)
      if (path === null || file === null || !file.isFile()) return reply.callNotFound()
      // Size and modification time, as `send` makes its weak ETag: a rebuilt file gets a new one.
      const etag = `W/"${file.size.toString(16)}-${Math.floor(file.mtimeMs).toString(16)}"`
      reply
        .header('content-security-policy', RENDERER_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-cache')
        .header('etag', etag)
        .header('last-modified', file.mtime.toUTCString())
      if (revalidates(request.headers['if-none-match'], etag)) return reply.code(304).send()
      const body = await readFile(path).catch(() => null)
      if (body === null) return reply.callNotFound()
      return reply.type(CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream').send(body)
    }
  )
}
