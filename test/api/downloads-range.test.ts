import { beforeAll, describe, expect, it } from 'vitest'

import { addFile, createCustomer, getLibrary, libraryTokenOf, localPath, purchase } from '../support/commerce'
import type { ProductFile } from '../support/commerce'
import { useEmulator } from '../support/emulator'
import { productWithCredential } from '../support/plugin-client'

// Delivery behind the library's download links (docs/api.md section 4): whole files and byte ranges.
// Every range must be the same bytes as that slice of the whole download.
describe('GET/HEAD /api/downloads/:fileId: whole files and ranges', () => {
  const SIZE = 200_000 // several 64 KiB blocks, so ranges cross block boundaries
  let file: ProductFile
  let smallFile: ProductFile
  let url: string
  let smallUrl: string
  let whole: Buffer

  const emu = useEmulator()
  beforeAll(async () => {
    const product = await productWithCredential(emu, 'Range Rider')
    file = await addFile(emu, product.productId, { version: '1.2.0', platform: 'windows', sizeBytes: SIZE })
    smallFile = await addFile(emu, product.productId, {
      version: '1.1.0',
      platform: 'linux',
      sizeBytes: 50,
      filename: 'range-rider-small.tar.gz'
    })
    const customer = await createCustomer(emu)
    await purchase(emu, customer.id, product.productId)
    const library = await getLibrary(emu, await libraryTokenOf(emu, customer.id))
    const downloads = library.body.products[0].downloads as Array<{ file_id: string; url: string }>
    url = emu.baseUrl + localPath((downloads.find((d) => d.file_id === file.id) as { url: string }).url)
    smallUrl = emu.baseUrl + localPath((downloads.find((d) => d.file_id === smallFile.id) as { url: string }).url)
    const response = await fetch(url)
    expect(response.status).toBe(200)
    whole = Buffer.from(await response.arrayBuffer())
  })

  async function ranged(range: string, target = url) {
    const response = await fetch(target, { headers: { range } })
    return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) }
  }

  it('serves the whole file with Content-Length, Content-Disposition and Accept-Ranges', async () => {
    const response = await fetch(url)
    const bytes = Buffer.from(await response.arrayBuffer())
    expect(response.status).toBe(200)
    expect(response.headers.get('content-length')).toBe(String(SIZE))
    expect(bytes.length).toBe(SIZE)
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${file.filename}"`)
    expect(file.filename).toMatch(/\.exe$/)
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    expect(response.headers.get('accept-ranges')).toBe('bytes')
    expect(response.headers.get('content-range')).toBeNull()
    // The same file downloads to the same bytes every time, and is not all one value.
    expect(bytes.equals(whole)).toBe(true)
    expect(new Set(whole.subarray(0, 1000)).size).toBeGreaterThan(100)
  })

  it('a different file has different bytes', async () => {
    const small = Buffer.from(await (await fetch(smallUrl)).arrayBuffer())
    expect(small.length).toBe(50)
    expect(small.equals(whole.subarray(0, 50))).toBe(false)
  })

  it.each([
    ['the first bytes', 'bytes=0-99', 0, 99],
    ['a middle slice across a 64 KiB block boundary', 'bytes=65500-65600', 65500, 65600],
    ['a middle slice spanning whole blocks', 'bytes=1000-140000', 1000, 140000],
    ['a suffix', 'bytes=-100', SIZE - 100, SIZE - 1],
    ['an open-ended range', 'bytes=199000-', 199000, SIZE - 1],
    ['the single last byte', 'bytes=199999-199999', SIZE - 1, SIZE - 1],
    ['a range whose end runs past the file (clamped)', 'bytes=199990-999999', 199990, SIZE - 1]
  ])('serves %s as 206 with Content-Range and the matching bytes', async (_label, range, start, end) => {
    const part = await ranged(range)
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${SIZE}`)
    expect(part.headers.get('content-length')).toBe(String(end - start + 1))
    expect(part.bytes.length).toBe(end - start + 1)
    expect(part.bytes.equals(whole.subarray(start, end + 1))).toBe(true)
  })

  it('a suffix longer than the file is the whole file as a range', async () => {
    const small = Buffer.from(await (await fetch(smallUrl)).arrayBuffer())
    const part = await ranged('bytes=-100', smallUrl)
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe('bytes 0-49/50')
    expect(part.bytes.equals(small)).toBe(true)
  })

  it.each(['bytes=200000-', 'bytes=250000-260000', 'bytes=-0'])(
    'an unsatisfiable range (%s) is 416 with Content-Range */size',
    async (range) => {
      const response = await fetch(url, { headers: { range } })
      expect(response.status).toBe(416)
      expect(response.headers.get('content-range')).toBe(`bytes */${SIZE}`)
      const body = (await response.json()) as Record<string, unknown>
      expect(body).toMatchObject({ ok: false, error: 'RANGE_NOT_SATISFIABLE' })
      expect(typeof body.message).toBe('string')
    }
  )

  it('a Range header it does not understand is ignored: the whole file', async () => {
    for (const range of ['items=0-10', 'bytes=0-10,20-30', 'bytes=abc']) {
      const response = await ranged(range)
      expect(response.status).toBe(200)
      expect(response.bytes.equals(whole)).toBe(true)
    }
  })

  it('HEAD answers the headers of the download without a body', async () => {
    const head = await fetch(url, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('content-length')).toBe(String(SIZE))
    expect(head.headers.get('content-disposition')).toBe(`attachment; filename="${file.filename}"`)
    expect(head.headers.get('accept-ranges')).toBe('bytes')
    expect((await head.arrayBuffer()).byteLength).toBe(0)

    const headRange = await fetch(url, { method: 'HEAD', headers: { range: 'bytes=-100' } })
    expect(headRange.status).toBe(206)
    expect(headRange.headers.get('content-range')).toBe(`bytes ${SIZE - 100}-${SIZE - 1}/${SIZE}`)
    expect(headRange.headers.get('content-length')).toBe('100')
    expect((await headRange.arrayBuffer()).byteLength).toBe(0)
  })

  it('reassembling consecutive ranges gives the whole file', async () => {
    const parts: Buffer[] = []
    for (let start = 0; start < SIZE; start += 70_000) {
      const end = Math.min(start + 70_000, SIZE) - 1
      const part = await ranged(`bytes=${start}-${end}`)
      expect(part.status).toBe(206)
      parts.push(part.bytes)
    }
    expect(Buffer.concat(parts).equals(whole)).toBe(true)
  })
})
