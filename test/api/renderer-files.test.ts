import { mkdirSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

import { RENDERER_CSP, rendererFileOf } from '../../src/server/routes/renderer'
import { useEmulator } from '../support/emulator'
import { rawRequest } from '../support/raw-http'
import { makeTempDir } from '../support/temp-dir'

// The desktop UI's files at / (src/server/routes/renderer.ts): what the Electron window and a
// browser on `serve` load. A renderer of its own in a temp folder, with a secret beside it that no
// path may reach.
const outDir = makeTempDir('renderer-files')
const root = join(outDir.path, 'renderer')
mkdirSync(join(root, 'assets'), { recursive: true })
mkdirSync(join(root, '.cache'))
writeFileSync(
  join(root, 'index.html'),
  '<!doctype html><div id="root"></div><script src="/assets/app-1a2b.js"></script>'
)
writeFileSync(join(root, 'assets', 'app-1a2b.js'), 'console.log("ui")')
writeFileSync(join(root, 'assets', 'app-1a2b.css'), 'body{margin:0}')
writeFileSync(join(root, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
writeFileSync(join(root, 'assets', 'data.bin'), Buffer.from([0, 1, 2, 3]))
writeFileSync(join(root, '.env'), 'SECRET=dotfile')
writeFileSync(join(root, 'index.html~'), 'SECRET=backup')
writeFileSync(join(root, '.cache', 'x.js'), 'hidden')
writeFileSync(join(outDir.path, 'secret.txt'), 'SECRET=outside')

describe('the renderer files at /', () => {
  const emulator = useEmulator({ rendererDir: root })
  afterAll(() => outDir.remove())
  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(emulator.baseUrl, { method: 'GET', path, headers })

  it('serves index.html at / and by name, with the UI policy and a revalidating cache', async () => {
    for (const path of ['/', '/index.html', '/index.html?x=1']) {
      const page = await get(path)
      expect(page.status, path).toBe(200)
      expect(page.text).toContain('<div id="root">')
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.headers['content-security-policy']).toBe(RENDERER_CSP)
      expect(page.headers['x-content-type-options']).toBe('nosniff')
      expect(page.headers['referrer-policy']).toBe('no-referrer')
      expect(page.headers['cache-control']).toBe('no-cache')
      expect(page.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/)
    }
  })

  it('serves each file with the type of its extension, and unknown ones as bytes', async () => {
    const types: Record<string, string> = {
      '/assets/app-1a2b.js': 'text/javascript; charset=utf-8',
      '/assets/app-1a2b.css': 'text/css; charset=utf-8',
      '/assets/logo.svg': 'image/svg+xml',
      '/assets/data.bin': 'application/octet-stream'
    }
    for (const [path, type] of Object.entries(types)) {
      const file = await get(path)
      expect(file.status, path).toBe(200)
      expect(file.headers['content-type'], path).toBe(type)
    }
    expect((await get('/assets/app-1a2b.js')).text).toBe('console.log("ui")')
  })

  it('answers a HEAD with the headers and no body, and its 304 with no Content-Length', async () => {
    const head = await rawRequest(emulator.baseUrl, { method: 'HEAD', path: '/assets/app-1a2b.js' })
    expect(head.status).toBe(200)
    expect(head.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(head.headers['content-length']).toBe(String('console.log("ui")'.length))
    expect(head.headers['content-security-policy']).toBe(RENDERER_CSP)
    expect(head.text).toBe('')
    const unchanged = await rawRequest(emulator.baseUrl, {
      method: 'HEAD',
      path: '/assets/app-1a2b.js',
      headers: { 'if-none-match': String(head.headers.etag) }
    })
    expect(unchanged.status).toBe(304)
    expect(unchanged.headers['content-length']).toBeUndefined()
  })

  it('answers 304 to a tag it still holds (alone, in a list, or *), and the file to an old one', async () => {
    const { etag } = (await get('/')).headers
    expect(typeof etag).toBe('string')
    for (const ifNoneMatch of [String(etag), `W/"0-0", ${String(etag)}`, '*']) {
      const again = await get('/', { 'if-none-match': ifNoneMatch })
      expect(again.status, ifNoneMatch).toBe(304)
      expect(again.text).toBe('')
      expect(again.headers.etag).toBe(etag)
    }
    expect((await get('/', { 'if-none-match': 'W/"0-0"' })).status).toBe(200)
    // Compared weakly: the same tag without W/ is the same tag.
    expect((await get('/', { 'if-none-match': String(etag).replace(/^W\//, '') })).status).toBe(304)
  })

  it('answers 304 to If-Modified-Since at or after the file, unless an If-None-Match says otherwise', async () => {
    const { 'last-modified': modified } = (await get('/')).headers
    expect(typeof modified).toBe('string')
    expect((await get('/', { 'if-modified-since': String(modified) })).status).toBe(304)
    expect((await get('/', { 'if-modified-since': new Date(Date.now() + 60_000).toUTCString() })).status).toBe(304)
    const older = new Date(Date.parse(String(modified)) - 1_000).toUTCString()
    expect((await get('/', { 'if-modified-since': older })).status).toBe(200)
    expect((await get('/', { 'if-modified-since': 'not a date' })).status).toBe(200)
    // If-None-Match wins when both are sent (RFC 9110 13.1.3).
    expect((await get('/', { 'if-modified-since': String(modified), 'if-none-match': 'W/"0-0"' })).status).toBe(200)
  })

  it('serves a file rebuilt while it runs, under a new tag', async () => {
    const before = (await get('/assets/logo.svg')).headers.etag
    writeFileSync(join(root, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="2"/>')
    const later = new Date(Date.now() + 5_000)
    utimesSync(join(root, 'assets', 'logo.svg'), later, later)
    const after = await get('/assets/logo.svg', { 'if-none-match': String(before) })
    expect(after.status).toBe(200)
    expect(after.text).toContain('width="2"')
    expect(after.headers.etag).not.toBe(before)
  })

  it('answers NOT_FOUND in the contract shape for a missing file, a folder, a file asked as a folder, a hidden or backup file and every climb out', async () => {
    const paths = [
      '/nope.js',
      '/assets',
      '/assets/',
      '/index.html/',
      '/assets/app-1a2b.js/',
      '/index.html~',
      '/ENV~1',
      '/assets//app-1a2b.js',
      '/.env',
      '/.cache/x.js',
      '/assets/%2e%2e/index.html',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%252e%252e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/a%5c..%5c..%5csecret.txt',
      '/..%5csecret.txt',
      '/index.html%00.js'
    ]
    for (const path of paths) {
      const answer = await get(path)
      expect(answer.status, path).toBe(404)
      expect(answer.body, path).toMatchObject({ ok: false, error: 'NOT_FOUND', message: expect.any(String) })
      expect(answer.text, path).not.toContain('SECRET')
    }
  })

  it('answers only GET and HEAD: any other method is NOT_FOUND in the contract shape', async () => {
    const post = await rawRequest(emulator.baseUrl, { method: 'POST', path: '/index.html', body: '' })
    expect(post.status).toBe(404)
    expect(post.body).toMatchObject({ ok: false, error: 'NOT_FOUND' })
  })
})

describe('rendererFileOf', () => {
  it('names files under the root only', () => {
    expect(rendererFileOf('/r', '')).toBe(join('/r', 'index.html'))
    expect(rendererFileOf('/r', 'assets/')).toBe(join('/r', 'assets', 'index.html'))
    expect(rendererFileOf('/r', 'assets/app.js')).toBe(join('/r', 'assets', 'app.js'))
    for (const refused of [
      '..',
      '../x',
      'a/../../x',
      'a//b',
      './x',
      '.env',
      'a\\..\\x',
      'x\0.js',
      '/etc/passwd',
      'ENV~1',
      'a~/b'
    ])
      expect(rendererFileOf('/r', refused), refused).toBeNull()
  })
})
